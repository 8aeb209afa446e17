// What every bench script needs around its measurement (bench/api.ts, send.ts, events.ts):
// a fresh database on the local PostgreSQL, server processes started and stopped (and
// killed if the script dies), autocannon, the machine's load, and its section of
// docs/benchmarks.md rewritten in place.
//
// --smoke (docs/benchmarks.md "Smoke runs"): every bench runs its real code path end to end
// at tiny sizes for a few seconds, as `npm test` does for all of them at once: `sized(full,
// small)` picks the size, ports come from the OS, databases get a name of their own (dropped
// at the end), docs/benchmarks.md is left alone, and `smokeCheck` fails the run on an error
// (never on a missed target).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const root = path.resolve(import.meta.dirname, "..");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a flag (--name) is on the command line. */
export const has = (name: string) => process.argv.slice(2).includes(`--${name}`);

/** --smoke: a tiny run of the real code path (seconds, small sizes, no docs written). */
export const smoke = has("smoke");

/** The full run's value, or the smoke run's. */
export const sized = <T>(full: T, small: T): T => (smoke ? small : full);

/**
 * In a smoke run, fails the bench when `ok` is false (an error, a refused request, a
 * broadcast that did not finish): a smoke run proves the path works, not that it is fast.
 * In a full run the same finding is printed and the run goes on.
 */
export function smokeCheck(ok: boolean, what: string): void {
  if (ok) return;
  if (smoke) throw new Error(`smoke run failed: ${what}`);
  console.warn(`warning: ${what}`);
}

/** The value of --name=VALUE on the command line, else the fallback. */
export const flag = (name: string, fallback: number) =>
  Number(
    process.argv
      .slice(2)
      .find((a) => a.startsWith(`--${name}=`))
      ?.slice(name.length + 3) ?? fallback,
  );

/** BENCH_PG_URL (the server's admin URL), else the local default. */
export const ADMIN_URL = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

// A smoke run's databases are its own (several smoke runs, and full runs, share one server).
const SMOKE_DB_SUFFIX = `_smoke_${process.pid}`;
const smokeDatabases = new Set<string>();

/** The database a bench uses for `name`: the name itself, or in a smoke run a name of its own. */
export const benchDatabaseName = (name: string) =>
  smoke && !name.endsWith(SMOKE_DB_SUFFIX) ? `${name}${SMOKE_DB_SUFFIX}` : name;

/** The bench database's URL on that server; `localOnly` names a bench that refuses a remote server. */
export function benchDatabaseUrl(name: string, localOnly?: string): string {
  const u = new URL(ADMIN_URL);
  if (localOnly && !["127.0.0.1", "localhost", "::1"].includes(u.hostname))
    throw new Error(`${localOnly} runs on a local PostgreSQL only`);
  u.pathname = `/${benchDatabaseName(name)}`;
  return u.toString();
}

/** Drops and creates the database (unless `reuse` and it exists), then migrates it. */
export async function freshDatabase(name: string, url: string, reuse = false): Promise<void> {
  const own = benchDatabaseName(name);
  if (smoke) smokeDatabases.add(own);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [own])).rowCount === 1;
  if (!(reuse && exists)) {
    await admin.query(`DROP DATABASE IF EXISTS "${own}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${own}"`);
  }
  await admin.end();
  const { migrate } = await import("@/lib/db/migrate");
  await migrate(url);
}

/** Drops the databases this smoke run made (runMain calls it at the end). */
async function dropSmokeDatabases(): Promise<void> {
  if (smokeDatabases.size === 0) return;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  for (const name of smokeDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}

/** The platform's rate-limit windows, set out of reach: they must not shape a throughput test. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_GLOBAL: "1000000000",
  RATE_LIMIT_SEND_IP: "1000000000",
  RATE_LIMIT_SEND_TOKEN: "1000000000",
  RATE_LIMIT_REPORTS_IP: "1000000000",
};

/** Fixed secrets for a bench server (never a real deployment's). */
export const BENCH_SECRETS = {
  NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789",
  // Production refuses to start without the provider secrets (docs/configuration.md).
  PROVIDER_APP_SECRET: "bench-provider-app-secret",
  PROVIDER_VERIFY_TOKEN: "bench-provider-verify-token",
  APP_ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
};

/** A child's whole environment (nothing is inherited that is not named). */
export type ChildEnv = Record<string, string | undefined>;

const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

/** A server process in the repository, its output dropped but stderr (killed when the script exits). */
export function startChild(cmd: string, args: string[], env: ChildEnv, stderr = true): ChildProcess {
  const child = spawn(cmd, args, {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", stderr ? "inherit" : "ignore"],
  });
  children.push(child);
  return child;
}

// BENCH_PROFILE=1 writes each TypeScript child's CPU profile into .bench-profiles/ (open it in Chrome DevTools).
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=.bench-profiles"] : [];

/** A TypeScript entry point of the repository run by node with tsx. */
export const startTs = (args: string[], env: ChildEnv) =>
  startChild(process.execPath, [...profile, "--import", "tsx", ...args], env);

/** SIGTERM, then SIGKILL when the process has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(graceMs)]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** Polls until the URL answers at all; returns its status. */
export async function waitHttp(url: string, timeoutMs = 60_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      return r.status;
    } catch {
      await sleep(250);
    }
  }
  throw new Error(`${url} did not come up`);
}

type Histogram = { average: number; p50: number; p99: number; max: number };
export type AutocannonResult = {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
  duration: number;
};
export type AutocannonRequest = { method: string; path: string; headers: Record<string, string>; body?: string };
export type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  /** Seconds a request may take before it counts as an error (autocannon's default 10). */
  timeout?: number;
  headers?: Record<string, string>;
  requests?: (AutocannonRequest & { setupRequest: (r: AutocannonRequest) => AutocannonRequest })[];
};
export const autocannon = createRequire(import.meta.url)("autocannon") as (
  opts: AutocannonOptions,
) => Promise<AutocannonResult>;

/** The 1-minute load average, one decimal. */
export const load1 = () => (os.loadavg()[0] ?? 0).toFixed(1);
/** The 1, 5 and 15-minute load averages: "a / b / c". */
export const loadAverages = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

/** Replaces (or appends) the section that starts with `heading` in docs/benchmarks.md (never in a smoke run). */
export function writeBenchSection(heading: string, section: string): void {
  if (smoke) {
    console.log("--smoke: docs/benchmarks.md left as it was");
    return;
  }
  const file = path.join(root, "docs/benchmarks.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const marker = new RegExp(`${escaped}[\\s\\S]*?(?=\\n## (?!#)|$)`);
  const merged = marker.test(existing)
    ? existing.replace(marker, () => section.trimEnd())
    : `${existing.trimEnd()}\n\n${section}`;
  // Every section heading gets a blank line before it, whoever wrote the section above.
  const next = merged.replace(/([^\n])\n(## )/g, "$1\n\n$2");
  fs.writeFileSync(file, `${next.trimEnd()}\n`);
  console.log(`Wrote ${path.relative(root, file)}`);
}

/**
 * Runs the script's main and exits (0, or 1 with the error printed): the children are killed
 * on exit; a smoke run's databases are dropped.
 */
export async function runMain(main: () => Promise<void>): Promise<void> {
  const started = performance.now();
  let code = 0;
  try {
    await main();
  } catch (error) {
    console.error(error);
    code = 1;
  }
  if (smoke) {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    // This process's own connections (a bench that called the services) end first, quietly.
    if ((globalThis as { __switchboardDb?: { pool?: unknown } }).__switchboardDb?.pool) {
      const [{ closeWakeups }, { disconnectDb }] = await Promise.all([
        import("@/lib/db/wakeups"),
        import("@/lib/db/pool"),
      ]);
      await closeWakeups();
      await disconnectDb();
    }
    await dropSmokeDatabases().catch((error: unknown) => console.error("could not drop the smoke databases", error));
    console.log(
      `smoke run ${code === 0 ? "passed" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  process.exit(code);
}

// ---- Interleaved comparisons, targets and the docs section ----

/** Rounds of an interleaved comparison: --rounds=N, else BENCH_ROUNDS, else 3 (1 in a smoke run). */
export const roundsFlag = () => flag("rounds", Number(process.env.BENCH_ROUNDS ?? sized(3, 1)));

/** Seconds of warm-up per side before its first interleaved round: --warmup=S, default 3 (1 in a smoke run). */
export const warmUpSeconds = () => flag("warmup", sized(3, 1));

/** One measured run of one side. */
export type Run = {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) of the server process per answered request, ms; set by `interleave` given a pid. */
  cpuMs?: number;
  requests?: number;
};

/** autocannon's result as a Run (requests/s = answered 2xx over the run's duration). */
export function toRun(r: AutocannonResult): Run {
  return {
    rps: Math.round(r["2xx"] / r.duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r["2xx"],
  };
}

/** CPU time (user + system) a process has used so far, ms (Linux /proc; 10 ms resolution). */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export type Spread = { min: number; median: number; max: number };
export function spread(values: number[]): Spread {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length / 2;
  const median =
    s.length === 0 ? Number.NaN : s.length % 2 ? (s[Math.floor(mid)] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  return { min: s[0] ?? Number.NaN, median, max: s.at(-1) ?? Number.NaN };
}
/** "62% (58-66%)": median and range of ratios given as fractions. */
export const pctSpread = (s: Spread) =>
  `${Math.round(s.median * 100)}% (${Math.round(s.min * 100)}-${Math.round(s.max * 100)}%)`;

export type Interleaved = {
  a: Run[];
  b: Run[];
  ratios: number[];
  ratio: Spread;
  /** Per round: b's CPU per request / a's (how much of b's efficiency a keeps; load changes it far less than throughput). */
  cpuRatios: number[];
  cpuRatio?: Spread;
};
export type InterleaveSide = { name: string; run: () => Promise<Run>; warmUp?: () => Promise<unknown>; pid?: number };

/** A run with the server's CPU per answered request, when its pid is known. */
async function runWithCpu(side: InterleaveSide): Promise<Run> {
  const before = side.pid ? cpuTimeMs(side.pid) : Number.NaN;
  const run = await side.run();
  if (side.pid && run.requests) run.cpuMs = (cpuTimeMs(side.pid) - before) / run.requests;
  return run;
}

/**
 * A, B, A, B, ... for `rounds` rounds, in the same run, so that the machine's load lands on
 * both sides alike; the ratio of round i is a[i].rps / b[i].rps. Each side is warmed up once
 * (warmUpSeconds) before its first round.
 */
export async function interleave(
  label: string,
  rounds: number,
  a: InterleaveSide,
  b: InterleaveSide,
): Promise<Interleaved> {
  // A smoke run warms up too: its one round lasts seconds, and a cold server on CI's loaded two
  // cores once answered no request within a 3 s round (bench:send, 2026-11-30).
  await a.warmUp?.();
  await b.warmUp?.();
  const out: Interleaved = { a: [], b: [], ratios: [], ratio: spread([]), cpuRatios: [] };
  const cpu = (r: Run) => (r.cpuMs === undefined ? "" : `, ${r.cpuMs.toFixed(2)} ms CPU/request`);
  for (let i = 0; i < rounds; i++) {
    const ra = await runWithCpu(a);
    const rb = await runWithCpu(b);
    for (const [side, r] of [
      [a, ra],
      [b, rb],
    ] as const)
      smokeCheck(
        r.non2xx === 0 && r.errors === 0 && (r.requests ?? r.rps) > 0,
        `${label}: ${side.name} answered ${r.requests ?? "?"} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors`,
      );
    out.a.push(ra);
    out.b.push(rb);
    out.ratios.push(rb.rps > 0 ? ra.rps / rb.rps : 0);
    if (ra.cpuMs && rb.cpuMs) out.cpuRatios.push(rb.cpuMs / ra.cpuMs);
    console.log(
      `  ${label} round ${i + 1}/${rounds}: ${a.name} ${ra.rps}/s (p99 ${ra.p99} ms${cpu(ra)}), ${b.name} ${rb.rps}/s (p99 ${rb.p99} ms${cpu(rb)}): ${Math.round((out.ratios.at(-1) ?? 0) * 100)}%`,
    );
  }
  out.ratio = spread(out.ratios);
  if (out.cpuRatios.length) out.cpuRatio = spread(out.cpuRatios);
  return out;
}

export /** Median CPU ms of the server per request over the rounds (min-max). */
function cpuCell(runs: Run[]): string {
  const cpu = runs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  if (cpu.length === 0) return "";
  const c = spread(cpu);
  return `${c.median.toFixed(2)} (${c.min.toFixed(2)}-${c.max.toFixed(2)})`;
}
export const cpuRatioCell = (r: Interleaved) => (r.cpuRatio ? pctSpread(r.cpuRatio) : "");

/** The median run of a side (by requests/s) and its p99 spread: what a table row shows. */
export function summary(runs: Run[]): { rps: Spread; p99: Spread; non2xx: number; errors: number } {
  return {
    rps: spread(runs.map((r) => r.rps)),
    p99: spread(runs.map((r) => r.p99)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}
/** "812 (790-830)" */
export const numSpread = (s: Spread) => `${Math.round(s.median)} (${Math.round(s.min)}-${Math.round(s.max)})`;

/** One target of an issue, with what was measured and whether it was met. */
export type Target = { what: string; goal: string; measured: string; met: boolean };

/** Prints each target with met / not met; returns the same lines as Markdown bullets. */
export function reportTargets(targets: Target[]): string[] {
  const lines = targets.map((t) => `${t.what}: ${t.measured} (target ${t.goal}): ${t.met ? "met" : "not met"}`);
  console.log(`\nTargets:\n${lines.map((l) => `  ${l}`).join("\n")}`);
  return lines.map((l) => `- ${l.replace(/: (met|not met)$/, ": **$1**")}`);
}

/** The machine and its load, for the header of a docs section. */
export function machineLine(loadBefore: string, loadAfter = loadAverages()): string {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  return `${date} UTC; ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}; load average (1 / 5 / 15 min) ${loadBefore} before, ${loadAfter} after (${os.cpus().length} cores, shared with other work)`;
}

/** Writes the section unless --no-write or --smoke was given (then prints that it did not). */
export function writeSectionUnlessDry(heading: string, section: string): void {
  if (has("no-write")) console.log("--no-write: docs/benchmarks.md left as it was");
  else writeBenchSection(heading, section);
}

/** A port the OS has free now (listened on, then closed). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// A smoke run takes its ports from the OS: smoke runs go in parallel, beside other work.
const PORTS_PER_BENCH = 50;
const smokePorts: number[] = [];
if (smoke) {
  const held: net.Server[] = [];
  // Held open together, so no two offsets get the same port.
  for (let i = 0; i < PORTS_PER_BENCH; i++) {
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", resolve);
    });
    held.push(probe);
    smokePorts.push((probe.address() as net.AddressInfo).port);
  }
  await Promise.all(held.map((p) => new Promise((resolve) => p.close(resolve))));
}

/**
 * Bench servers listen on 127.0.0.1:3400-3449 (BENCH_PORT_BASE moves the block; offsets
 * 0-49); a smoke run's on ports the OS picked.
 */
export function benchPort(offset: number): number {
  if (offset < 0 || offset >= PORTS_PER_BENCH) throw new Error(`bench port offset ${offset} is outside 0-49`);
  return smoke ? (smokePorts[offset] ?? 0) : Number(process.env.BENCH_PORT_BASE ?? 3400) + offset;
}
