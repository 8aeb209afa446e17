// npm run bench:start: how fast production starts and how fast the operator CLI answers
// (docs/benchmarks.md "Start-up and the operator CLI").
// On a built clone (a first, unmeasured `npm start` builds what is stale, migrates and
// seeds a fresh data folder), it times, interleaved A, B, A, B:
//   A: `npm start` as shipped (node scripts/start.mjs: the compiled supervisor bundle),
//   B: the supervisor through tsx (transpiling at start, as production ran before),
// from spawn to ready (GET /api/health 200 and the dashboard answering). Then, with the app
// up, the CLI: `npm run -s cli -- --help`, `node .build/server/cli.mjs --help`, a read-only
// command on the running app's database (`callbacks:dead --limit 1 --json`, plain pg), a
// write through a service and the Prisma client (`token:create`, for a customer it creates), and tsx's
// `scripts/cli.ts --help` for comparison: wall time and CPU time (user + system of the
// command and its children, which the machine's load affects less). Prints each target with
// met / not met and the load average, and writes the figures into docs/benchmarks.md.
// `npm run bench:start -- --cli` measures only the CLI (one start of the app, no start-up
// timing) and rewrites only the section's "### The operator CLI".
// Options (env): BENCH_START_RUNS (3), BENCH_CLI_RUNS (5), BENCH_START_PORT (BENCH_PORT_BASE + 43).
// --smoke: one start-up of each kind and each command once, no docs written (bench/harness.ts).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchPort, has, loadAverages, root, runMain, sized, writeBenchSection } from "./harness";

const RUNS = Number(process.env.BENCH_START_RUNS ?? sized(3, 1));
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? sized(5, 1));
const PORT = Number(process.env.BENCH_START_PORT ?? benchPort(43));
const CLI_ONLY = has("cli");
const CLI_TARGET_MS = 1_000;
const READY_TIMEOUT_MS = 120_000;
const FIRST_START_TIMEOUT_MS = 3_600_000; // the unmeasured first start may run `next build`

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-start-"));
const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn" };
// The embedded database, as a fresh clone's `npm start` runs it.
for (const name of ["DATABASE_URL", "REDIS_URL", "NODE_ENV"]) delete childEnv[name];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answers(url: string): Promise<number> {
  try {
    const r = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return 0;
  }
}

/** Starts the app; resolves with the milliseconds until the API and the dashboard answer. */
async function startApp(
  args: string[],
  timeoutMs = READY_TIMEOUT_MS,
): Promise<{ child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  // Its own process group: stopping it stops what it started (a build, Next) too.
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  live.add(child);
  child.once("exit", () => live.delete(child));
  const base = `http://127.0.0.1:${PORT}`;
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited with ${child.exitCode}`);
    // The front server listens before Next: ready when both answer (not 502 "starting").
    if ((await answers(`${base}/api/health`)) === 200) {
      const page = await answers(`${base}/login`);
      if (page > 0 && page < 500) return { child, readyMs: performance.now() - started };
    }
    await sleep(50);
  }
  killGroup(child, "SIGKILL");
  throw new Error(`${args.join(" ")} was not ready after ${timeoutMs / 1000} s`);
}

const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of live) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {} // gone already
}

async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM"); // the supervisor stops Next itself
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
  await sleep(500); // the port and the data folder's lock are free again
}

/**
 * CPU time (user + system, ms) of this process's waited-for children, from /proc/self/stat
 * (cutime, cstime, in clock ticks of 10 ms); NaN where there is no /proc.
 */
function childrenCpuMs(): number {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields after the command name start at field 3 (state): cutime is field 16, cstime 17.
    return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Wall and CPU milliseconds of one command run to completion (it must succeed). */
function timeCommand(cmd: string, args: string[]): { wallMs: number; cpuMs: number } {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, env: childEnv, encoding: "utf8" });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore };
}

type CliRow = { label: string; wallMs: number; cpuMs: number; hasTarget: boolean };

/** The commands timed, with `CUSTOMER` replaced by a customer measureCli creates first. */
const CLI_COMMANDS: [string, string, string[]][] = [
  ["`npm run -s cli -- --help`", "npm", ["run", "-s", "cli", "--", "--help"]],
  ["`node .build/server/cli.mjs --help`", process.execPath, [".build/server/cli.mjs", "--help"]],
  [
    "`node .build/server/cli.mjs callbacks:dead --limit 1 --json` (database read, no Prisma)",
    process.execPath,
    [".build/server/cli.mjs", "callbacks:dead", "--limit", "1", "--json"],
  ],
  [
    "`npm run -s cli -- callbacks:dead --limit 1 --json` (database read, no Prisma)",
    "npm",
    ["run", "-s", "cli", "--", "callbacks:dead", "--limit", "1", "--json"],
  ],
  [
    "`node .build/server/cli.mjs token:create --customer ID --json` (database write, Prisma client)",
    process.execPath,
    [".build/server/cli.mjs", "token:create", "--customer", "CUSTOMER", "--json"],
  ],
  [
    "tsx `scripts/cli.ts --help` (transpiled at start)",
    process.execPath,
    ["--import", "tsx", "scripts/cli.ts", "--help"],
  ],
  ["`node -e 0` (Node.js itself)", process.execPath, ["-e", "0"]],
];

/** A customer of the bench's own, for the commands that need one (token:create). */
function benchCustomer(): string {
  const args = [".build/server/cli.mjs", "customer:create", "--name", "Bench CLI", "--json"];
  const r = spawnSync(process.execPath, args, { cwd: root, env: childEnv, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`customer:create failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return (JSON.parse(r.stdout) as { customerId: string }).customerId;
}

/**
 * Times the CLI commands against the running app (then stops it); prints each target with
 * met / not met and returns the "### The operator CLI" section for docs/benchmarks.md.
 */
async function measureCli(app: ChildProcess): Promise<string> {
  console.log("CLI, with the app running…");
  const loadBefore = loadAverages();
  const rows: CliRow[] = [];
  try {
    const customer = benchCustomer();
    for (const [label, cmd, template] of CLI_COMMANDS) {
      const args = template.map((a) => (a === "CUSTOMER" ? customer : a));
      if (CLI_RUNS > 1) timeCommand(cmd, args); // warm the file cache
      const runs = Array.from({ length: CLI_RUNS }, () => timeCommand(cmd, args));
      const row: CliRow = {
        label,
        wallMs: median(runs.map((r) => r.wallMs)),
        cpuMs: median(runs.map((r) => r.cpuMs)),
        hasTarget: label.startsWith("`npm run") || label.startsWith("`node .build"),
      };
      rows.push(row);
      console.log(`  ${label}: median ${seconds(row.wallMs)} s, CPU ${seconds(row.cpuMs)} s`);
    }
  } finally {
    await stopApp(app);
  }
  const load = loadAverages();
  const verdict = (ms: number) => (ms < CLI_TARGET_MS ? "met" : "not met");
  console.log("");
  for (const row of rows.filter((r) => r.hasTarget)) {
    console.log(
      `CLI target < ${CLI_TARGET_MS / 1000} s: ${row.label} median ${seconds(row.wallMs)} s (CPU ${seconds(row.cpuMs)} s): ${verdict(row.wallMs)}`,
    );
  }
  console.log(`Load average (1 / 5 / 15 min): ${loadBefore} before, ${load} after, on ${os.cpus().length} cores`);
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  return `### The operator CLI

\`npm run bench:start\` (or \`-- --cli\` for this part alone), ${date} UTC, load average ${loadBefore} before
and ${load} after (1 / 5 / 15 min) on ${os.cpus().length} cores; the target (< 1 s) is for a quiet machine. Medians of
${CLI_RUNS} runs with the app running (the database commands use its embedded database). CPU = user + system
time of the command and its children (from \`/proc/self/stat\`), which the machine's load affects less
than the wall time. The CLI loads only the command it runs (lib/cli/commands.ts): \`--help\` loads no
database code; \`callbacks:dead\` loads zod and pg (lib/db/pool.ts) but not the Prisma client; a command
that writes through a service (\`token:create\`) loads the Prisma client too (its query compiler is
WebAssembly), most of its time.

| what | median wall | median CPU | target |
| --- | --- | --- | --- |
${rows
  .map(
    (r) =>
      `| ${r.label} | ${seconds(r.wallMs)} s | ${seconds(r.cpuMs)} s | ${r.hasTarget ? `< 1 s: ${verdict(r.wallMs)}` : "(baseline)"} |`,
  )
  .join("\n")}
`;
}

const APP = ["scripts/start.mjs"];
const TSX_SUPERVISOR = ["--import", "tsx", "scripts/supervisor.ts"];

async function main() {
  console.log(`Data folder ${dataDir}, port ${PORT}; load average ${loadAverages()}`);
  console.log("First start (unmeasured: builds what is stale, migrates, seeds the demo)…");
  const first = await startApp(APP, FIRST_START_TIMEOUT_MS);
  if (CLI_ONLY) {
    const cliSection = await measureCli(first.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
    writeBenchSection("### The operator CLI", cliSection);
    return;
  }
  await stopApp(first.child);

  const compiled: number[] = [];
  const transpiled: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [label, args, into] of [
      ["npm start (compiled)", APP, compiled],
      ["supervisor via tsx", TSX_SUPERVISOR, transpiled],
    ] as const) {
      const { child, readyMs } = await startApp([...args]);
      into.push(readyMs);
      console.log(`  run ${i + 1}: ${label} ready in ${seconds(readyMs)} s`);
      await stopApp(child);
    }
  }

  const { child } = await startApp(APP);
  const cliSection = await measureCli(child);
  fs.rmSync(dataDir, { recursive: true, force: true });

  const load = loadAverages();
  const startMet = median(compiled) < median(transpiled);
  console.log(
    `\nStart-up target: \`npm start\` (compiled) ready faster than the supervisor through tsx: median ${seconds(median(compiled))} s vs ${seconds(median(transpiled))} s: ${startMet ? "met" : "not met"}`,
  );
  console.log(`Load average (1 / 5 / 15 min): ${load} on ${os.cpus().length} cores`);

  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  writeBenchSection(
    "## Start-up and the operator CLI",
    `## Start-up and the operator CLI

\`npm run bench:start\` (bench/start.ts), ${date} UTC, load average ${load} (1 / 5 / 15 min) on
${os.cpus().length} cores; the targets are for a quiet machine. A built clone, embedded database, a data folder
migrated and seeded by a first unmeasured start. Ready = \`GET /api/health\` answers 200 and
the dashboard answers. Start-ups interleaved (A, B, A, B), ${RUNS} each.

| what | median | runs | target |
| --- | --- | --- | --- |
| \`npm start\` (compiled supervisor) to ready | ${seconds(median(compiled))} s | ${compiled.map(seconds).join(", ")} | faster than tsx: ${startMet ? "met" : "not met"} |
| supervisor through tsx to ready | ${seconds(median(transpiled))} s | ${transpiled.map(seconds).join(", ")} | (baseline) |

${cliSection}`,
  );
}

await runMain(async () => {
  try {
    await main();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
