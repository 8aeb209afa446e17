// npm run bench:idle: CPU of an idle `npm start` (target (h): under 1% of one core).
// Starts the app as `npm start` does (scripts/start.mjs: install check, builds when stale,
// then the compiled supervisor with its embedded PGlite, background work and Next) on a
// fresh data folder (the demo seeded), waits until it answers, then sums the CPU time of
// its whole process tree from /proc (Linux) over two windows: 10-70 s after ready (the
// start-up aftermath, chiefly V8's memory reducer compacting the start-up and seed garbage
// once) and the next minute, steady idle, which the target is judged on, with each
// process's share. --runs=N (default 3, at most 5) starts the app N times; the target is
// printed met / not met with the spread over the runs and the load average beside it.
//
// --profile: the app's processes run with bench/profile-preload.mjs (a CPU profile and the SQL
// statements of each); after each
// run, the server process's CPU in the steady window by part of the stack and by function,
// and the SQL statements it sent then (docs/benchmarks.md "Idle CPU"). --window=S and
// --settle=S change the windows; --smoke: one run, a second to settle, windows of 3 s, no
// docs written (bench/harness.ts).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { summarizeProfile } from "./cpu-profile";
import { benchPort, flag, has, root, runMain, sized, smokeCheck, writeSectionUnlessDry } from "./harness";

const WINDOW_S = flag("window", Number(process.env.IDLE_WINDOW_S ?? sized(60, 3)));
const SETTLE_S = flag("settle", Number(process.env.IDLE_SETTLE_S ?? sized(10, 1)));
const RUNS = flag("runs", sized(3, 1));
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 5) throw new Error("--runs=N takes a whole number from 1 to 5");
const PROFILE = has("profile");
const TARGET = 1; // percent of one core
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

type Proc = { ppid: number; ticks: number; label: string };

/** What a process of the app's tree is, from its command line. */
function labelOf(pid: number, comm: string): string {
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {} // exited meanwhile
  if (/supervisor\.(mjs|ts)/.test(cmd)) return "server (supervisor: front server, background work, PGlite)";
  if (comm === "next-server") return "next-server";
  if (/next(\.js)? start|bin\/next start/.test(cmd)) return "next start";
  if (cmd.includes("scripts/start.mjs")) return "scripts/start.mjs";
  return comm;
}

/** utime + stime (ticks), parent and label of every process, from /proc. */
function snapshot(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      procs.set(Number(name), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        label: comm,
      });
    } catch {} // exited meanwhile
  }
  return procs;
}

/** The tree under `rootPid`: pid -> its CPU ticks so far and label. */
function treeOf(rootPid: number): Map<number, Proc> {
  const procs = snapshot();
  const pids = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of procs)
      if (!pids.has(pid) && pids.has(p.ppid)) {
        pids.add(pid);
        grew = true;
      }
  }
  const out = new Map<number, Proc>();
  for (const pid of pids) {
    const p = procs.get(pid);
    if (p) out.set(pid, { ...p, label: labelOf(pid, p.label) });
  }
  return out;
}

type Window = { percent: number; byProcess: Map<string, number>; serverPid?: number; fromUs: number; toUs: number };
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** CPU of the process tree over `seconds`, as % of one core, in all and per process. */
async function cpuWindow(rootPid: number, seconds: number): Promise<Window> {
  const before = treeOf(rootPid);
  const fromUs = monotonicUs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = treeOf(rootPid);
  const toUs = monotonicUs();
  const elapsed = (toUs - fromUs) / 1e6;
  const byProcess = new Map<string, number>();
  let ticks = 0;
  let serverPid: number | undefined;
  for (const [pid, p] of after) {
    const used = p.ticks - (before.get(pid)?.ticks ?? 0);
    ticks += used;
    byProcess.set(p.label, (byProcess.get(p.label) ?? 0) + (100 * used) / TICKS / elapsed);
    if (p.label.startsWith("server")) serverPid = pid;
  }
  return { percent: (100 * ticks) / TICKS / elapsed, byProcess, serverPid, fromUs, toUs };
}

type RunResult = { readyMs: number; first: Window; steady: Window; load: string[]; profile?: string[] };

/** One run: a fresh data folder, `npm start`, the two windows, stop. */
async function run(index: number): Promise<RunResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-idle-"));
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-idle-profile-")) : undefined;
  const port = benchPort(44 + index);
  console.log(`Run ${index}: starting the app (node scripts/start.mjs) on port ${port}, data in ${dataDir}…`);
  const startedAt = Date.now();
  const profiling = profileDir
    ? {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${path.join(root, "bench/profile-preload.mjs")}`,
        BENCH_PROFILE_DIR: profileDir,
      }
    : {};
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...profiling },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  child.stdout?.on("data", (d) => process.stdout.write(d));
  const stop = () => {
    try {
      process.kill(-(child.pid ?? 0), "SIGTERM");
    } catch {} // gone already
  };
  process.on("exit", stop);
  try {
    let readyMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before it was ready`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/login`, { signal: AbortSignal.timeout(5_000) });
        if (r.status === 200) {
          readyMs = Date.now() - startedAt;
          break;
        }
      } catch {} // not listening yet
      if (Date.now() - startedAt > 15 * 60_000) throw new Error("the app did not become ready in 15 minutes");
      await new Promise((r) => setTimeout(r, 250));
    }
    console.log(
      `Ready after ${(readyMs / 1000).toFixed(1)} s; settling ${SETTLE_S} s, then two windows of ${WINDOW_S} s…`,
    );
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const first = await cpuWindow(child.pid ?? 0, WINDOW_S);
    const steady = await cpuWindow(child.pid ?? 0, WINDOW_S);
    // A dead app uses no CPU: a run only counts if the app lived through both windows.
    if (child.exitCode !== null || steady.byProcess.size === 0)
      throw new Error(`run ${index}: the app exited while measured`);
    smokeCheck(steady.serverPid !== undefined, "no server process in the app's tree");
    const load = os.loadavg().map((l) => l.toFixed(2));
    console.log(
      `run ${index}: ${SETTLE_S}-${SETTLE_S + WINDOW_S} s after ready ${first.percent.toFixed(2)}%, steady idle ${steady.percent.toFixed(2)}% of one core (${shares(steady)}; load average ${load.join(" / ")})`,
    );
    const result: RunResult = { readyMs, first, steady, load };
    stop();
    await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 20_000))]);
    if (profileDir) result.profile = profileReport(profileDir, steady);
    return result;
  } finally {
    stop();
    process.off("exit", stop);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

/** "server 0.30%, next-server 0.02%" */
const shares = (w: Window) =>
  [...w.byProcess]
    .filter(([, p]) => p > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([label, p]) => `${label} ${p.toFixed(2)}%`)
    .join(", ") || "no process used CPU";

/** The server process's steady window: its profile by part and function, and the SQL it sent. */
function profileReport(dir: string, steady: Window): string[] {
  const files = fs.readdirSync(dir);
  const profile = files.find((f) => f === `${steady.serverPid}.cpuprofile`);
  const lines: string[] = [];
  if (!profile) return [`no CPU profile of the server process (pid ${steady.serverPid}) was written`];
  const s = summarizeProfile(path.join(dir, profile), steady.fromUs, steady.toUs);
  const pct = (ms: number) => `${((ms / 10 / s.spanS) as number).toFixed(2)}%`;
  lines.push(
    `server process, steady window (${s.spanS.toFixed(0)} s, profiled): busy ${s.busyMs.toFixed(0)} ms = ${pct(s.busyMs)} of a core`,
  );
  for (const [part, ms] of s.parts.slice(0, 8)) lines.push(`  ${part}: ${ms.toFixed(0)} ms (${pct(ms)})`);
  lines.push("  most self time:");
  for (const [fn, ms] of s.functions.slice(0, 8)) lines.push(`    ${ms.toFixed(0)} ms ${fn}`);
  const census = files.find((f) => f === `census-${steady.serverPid}.json`);
  const statements = census ? (JSON.parse(fs.readFileSync(path.join(dir, census), "utf8")) as [number, string][]) : [];
  const counts = new Map<string, number>();
  for (const [at, text] of statements)
    if (at >= steady.fromUs && at <= steady.toUs) counts.set(text, (counts.get(text) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  lines.push(`  SQL statements sent in the window: ${total} (${(total / s.spanS).toFixed(2)}/s); most sent:`);
  for (const [text, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 10))
    lines.push(`    ${String(n).padStart(5)} ${text.slice(0, 110)}`);
  for (const l of lines) console.log(l);
  return lines;
}

async function main() {
  const runs: RunResult[] = [];
  for (let i = 1; i <= RUNS; i++) runs.push(await run(i));
  const steadies = runs.map((r) => r.steady.percent).sort((a, b) => a - b);
  const median = steadies[Math.floor((steadies.length - 1) / 2)] ?? Number.NaN;
  const span = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}%`;
  const met = Math.max(...steadies) < TARGET;
  const loads = runs.map((r) => r.load[0]).join(", ");
  const verdict = `(h) idle \`npm start\`: steady idle CPU over ${WINDOW_S} s: median ${median.toFixed(2)}%, runs ${span(steadies)} (load ${loads}) (target < ${TARGET}% of one core in every run): ${met ? "met" : "not met"}`;
  console.log(verdict);
  console.log(
    `${SETTLE_S}-${SETTLE_S + WINDOW_S} s after ready: runs ${span(runs.map((r) => r.first.percent))} (start-up aftermath; reported, not the target)`,
  );
  const date = new Date().toISOString().replace("T", " ").slice(0, 16);
  const section = [
    "## Idle CPU of `npm start` (`npm run bench:idle`)",
    "",
    "The app started as `npm start` starts it (compiled supervisor, embedded PGlite, background work on",
    "LISTEN/NOTIFY with a 30 s safety poll, Next) on a fresh data folder (the demo seeded), once per run; from",
    `${SETTLE_S} s after it answers, the CPU time of its whole process tree (from \`/proc\`) over two windows of ${WINDOW_S} s.`,
    `The first window (${SETTLE_S}-${SETTLE_S + WINDOW_S} s after ready) carries the start-up aftermath (V8's memory reducer compacts the start-up and demo-seed`,
    "garbage once); the second is steady idle, which the target ((h): under 1% of one core) is judged on, in",
    "every run. The server process is the supervisor: the front server, every background worker and the embedded",
    "PGlite database (whose queries run in that process); Next runs in `next-server`.",
    "",
    `| Date (UTC) | Run | Steady idle (% of one core) | per process | ${SETTLE_S}-${SETTLE_S + WINDOW_S} s after ready | Ready after (incl. any build) | Load average (1/5/15 min) |`,
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...runs.map(
      (r, i) =>
        `| ${date} | ${i + 1} | ${r.steady.percent.toFixed(2)}% | ${shares(r.steady)} | ${r.first.percent.toFixed(2)}% | ${(r.readyMs / 1000).toFixed(1)} s | ${r.load.join(" / ")} on ${os.cpus().length} cores |`,
    ),
    "",
    `- ${verdict.replace(/: (met|not met)$/, ": **$1**")}`,
    "",
  ].join("\n");
  writeSectionUnlessDry("## Idle CPU of `npm start` (`npm run bench:idle`)", section);
}

await runMain(main);
