// The operator CLI as tests run it: a real process against the test database, as an operator
// runs `npm run -s cli -- ...` (the compiled bundle, scripts/run.mjs), or the same entry point
// in-process (fast, for the many bad-input cases).
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, inject } from "vitest";
import { runCli } from "@/lib/cli/run";
import { buildServerBundle } from "./server-processes";

const root = path.resolve(import.meta.dirname, "..");

export type Run = { code: number | null; stdout: string; stderr: string };

export function spawnCli(
  args: string[],
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<Run> {
  // With node arguments (a loader hook that records the modules loaded) the TypeScript
  // sources run under tsx, so what is recorded are the project's own files, not bundle chunks.
  const [command, commandArgs] = options.nodeArgs
    ? [path.join(root, "node_modules/.bin/tsx"), [...options.nodeArgs, "scripts/cli.ts", ...args]]
    : [process.execPath, ["scripts/run.mjs", "cli", ...args]];
  if (!options.nodeArgs) bundleOnce();
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let bundled = false;
/** The compiled bundle, built when stale, once per test process (test/server-processes.ts). */
function bundleOnce(): void {
  if (bundled) return;
  buildServerBundle();
  bundled = true;
}

export const cli = (...args: string[]) => spawnCli(args);

/** The same entry point in-process. */
export async function cliInProcess(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

/** Runs a command with --json; expects success and exactly one JSON object on stdout. */
export async function cliJson(...args: string[]): Promise<Record<string, unknown>> {
  const run = await cli(...args, "--json");
  expect(run.stderr, run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as Record<string, unknown>;
}
