import { afterAll, inject, vi } from "vitest";
import { resetEnvCache } from "../lib/core/env";
import { disconnectDb } from "../lib/db";
import { settleLowBalanceChecks } from "../lib/domains/billing/low-balance";
import { getSimulator } from "../lib/domains/provider/client";
import { simulatorOptionsFromEnv } from "../lib/domains/provider/simulator";

process.env.DATABASE_URL = inject("databaseUrl");
// Files a test stores (media, the simulator's) go to this run's temporary folder, never .data/.
process.env.DATA_DIR = inject("dataDir");
// The imports above may have read the environment already (env() keeps its first reading):
// read it again with this run's database and data folder.
resetEnvCache();

// Most files share their worker process with the files after them (vitest.config.ts): a file
// that changes the environment or the simulator's options puts them back in its own hooks. If
// it does not, the files after it would run in a process that is not what they expect, and
// would fail far from the cause: this file fails instead, naming what it left. (Files that fake
// timers or stub globals run in a process of their own; they are checked the same way.)

// The environment every file of this process starts from (taken by the first file). A file whose
// own afterAll failed skipped the check below (a failing hook ends a file's hooks): the next
// file starts from this again, so the leak stops there.
const g = globalThis as { __switchboardEnvAtStart?: NodeJS.ProcessEnv };
g.__switchboardEnvAtStart ??= { ...process.env };
const envAtStart = g.__switchboardEnvAtStart;

// Set by a library as it loads, not by a test: libvips (sharp) sets VIPSHOME.
const SET_BY_LIBRARIES = new Set(["VIPSHOME"]);

/** What a test file left changed, put back; one line per change. */
function restoreProcessState(): string[] {
  const left: string[] = [];
  for (const key of new Set([...Object.keys(envAtStart), ...Object.keys(process.env)])) {
    if (process.env[key] === envAtStart[key] || SET_BY_LIBRARIES.has(key)) continue;
    left.push(`the environment variable ${key}`); // its name only: a value may be a secret
    if (envAtStart[key] === undefined) delete process.env[key];
    else process.env[key] = envAtStart[key];
  }
  resetEnvCache(); // also for a file that put the environment back but not env()'s reading of it
  if (vi.isFakeTimers()) {
    left.push("fake timers (vi.useRealTimers() in an afterEach)");
    vi.useRealTimers();
  }
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // The simulator's options as the (restored) environment sets them: a file that changes them
  // for a test puts them back.
  const simulator = getSimulator();
  if (simulator) {
    const options = simulator.options as Record<string, unknown>;
    for (const [key, value] of Object.entries(simulatorOptionsFromEnv())) {
      if (options[key] === value) continue;
      left.push(`the simulator's option ${key}`);
      options[key] = value;
    }
  }
  return left;
}

restoreProcessState();

afterAll(async () => {
  // Background work a test file's ingest started (the low-balance check after a debit) ends
  // before the pool closes: a transaction begun on a closing pool never finishes.
  await settleLowBalanceChecks();
  await disconnectDb();
  const left = restoreProcessState();
  if (left.length) throw new Error(`this test file left changed, for the files after it: ${left.join("; ")}`);
});
