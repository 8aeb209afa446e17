// Starts the production entry points as child processes the way `npm run serve:api` and
// `npm run worker` run them (scripts/run.mjs: the compiled bundle of scripts/build-server.mjs),
// and knows when each is ready from its health endpoint (docs/deployment.md).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { waitFor } from "./events-helpers";

const root = path.resolve(import.meta.dirname, "..");

export type ServerProcess = {
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> of the process (the API port, or the worker's health port). */
  base: string;
  output: () => string;
};

/** Builds .build/server once when stale, so processes started together never build at once. */
export function buildServerBundle(): void {
  const r = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      "const { ensureServerBuild } = await import('./scripts/build-server.mjs'); await ensureServerBuild(process.cwd(), 'worker');",
    ],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`building the server bundle failed:\n${r.stdout}${r.stderr}`);
}

/**
 * The command line of a worker process as `npm run worker -- ...args` runs it: the compiled
 * bundle in this very process (scripts/run.mjs imports it; no child of its own, so SIGKILL
 * ends the worker itself). Call buildServerBundle() first (once per file).
 */
export const workerArgs = (...args: string[]): string[] => ["scripts/run.mjs", "worker", ...args];

/**
 * Starts `node scripts/run.mjs <entry> ...args`; `announce` finds the port in its output
 * (PORT=0 / WORKER_HEALTH_PORT=0: the process picks a free one and prints it).
 */
export async function startProcess(
  name: string,
  entry: "serve-api" | "worker",
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["scripts/run.mjs", entry, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const announce = entry === "serve-api" ? /on http:\/\/localhost:(\d+)/ : /health on http:\/\/127\.0\.0\.1:(\d+)/;
  const proc: ServerProcess = { name, child, base: "", output: () => output };
  try {
    const port = await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        return announce.exec(output)?.[1];
      },
      timeoutMs,
      `${name} to listen`,
    );
    proc.base = `http://127.0.0.1:${port}`;
    const healthPath = entry === "serve-api" ? "/api/health" : "/healthz";
    await waitFor(
      async () => (await fetch(`${proc.base}${healthPath}`).catch(() => null))?.status === 200,
      timeoutMs,
      `${name} to answer its health check`,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${output}`);
  }
  return proc;
}

/** SIGTERM, then SIGKILL after a grace period; resolves when the process is gone. */
export async function stopProcess(proc: ServerProcess, graceMs = 10_000): Promise<void> {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
