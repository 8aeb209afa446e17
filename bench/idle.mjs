// npm run bench:idle: CPU of an idle `npm start` (issue 15, target < 1% of one core).
// Starts the app as `npm start` does (scripts/start.mjs: install check, builds when stale,
// then the compiled supervisor with its embedded PGlite, background work and Next) on a
// fresh data folder, waits until it answers, lets it settle, then sums the CPU time of the
// whole process tree from /proc over 60 s (Linux). Prints met / not met and writes the
// figure, the date and the load average into docs/benchmarks.md.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const WINDOW_S = Number(process.env.IDLE_WINDOW_S ?? 60);
const SETTLE_S = Number(process.env.IDLE_SETTLE_S ?? 10);
const TARGET = 1; // percent of one core
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

// Bench servers listen in 3400-3499 (BENCH_PORT_BASE moves the block; bench/harness.ts benchPort).
const freePort = async () => Number(process.env.BENCH_PORT_BASE ?? 3400) + 40;

/** utime + stime (ticks) and parent of every process, from /proc. */
function snapshot() {
  const procs = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {} // exited meanwhile
  }
  return procs;
}
function treeTicks(rootPid) {
  const procs = snapshot();
  const pids = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of procs) if (!pids.has(pid) && pids.has(p.ppid)) grew = pids.add(pid) && true;
  }
  const perPid = new Map([...pids].filter((pid) => procs.has(pid)).map((pid) => [pid, procs.get(pid).ticks]));
  return perPid;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-idle-"));
const port = await freePort();
console.log(`Starting the app (node scripts/start.mjs) on port ${port}, data in ${dataDir}…`);
const startedAt = Date.now();
const child = spawn(process.execPath, ["scripts/start.mjs"], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
child.stdout.on("data", (d) => process.stdout.write(d));
const stop = () => {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
};
process.on("exit", stop);

let readyMs;
for (;;) {
  if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before it was ready`);
  try {
    const r = await fetch(`http://127.0.0.1:${port}/login`, { signal: AbortSignal.timeout(5_000) });
    if (r.status === 200) {
      readyMs = Date.now() - startedAt;
      break;
    }
  } catch {}
  if (Date.now() - startedAt > 15 * 60_000) throw new Error("the app did not become ready in 15 minutes");
  await new Promise((r) => setTimeout(r, 250));
}
console.log(`Ready after ${(readyMs / 1000).toFixed(1)} s; settling ${SETTLE_S} s, then measuring ${WINDOW_S} s…`);
await new Promise((r) => setTimeout(r, SETTLE_S * 1000));

const before = treeTicks(child.pid);
const t0 = process.hrtime.bigint();
await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
const after = treeTicks(child.pid);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
let ticks = 0;
for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
const percent = (100 * ticks) / TICKS / seconds;
const load = os.loadavg().map((l) => l.toFixed(2));
stop();

const met = percent < TARGET;
const verdict = `idle CPU ${percent.toFixed(2)}% of one core over ${seconds.toFixed(0)} s (target < ${TARGET}%): ${met ? "met" : "not met"}`;
console.log(verdict);
console.log(`processes in the tree: ${after.size}; load average ${load.join(" / ")} (${os.cpus().length} cores)`);

const date = new Date().toISOString().replace("T", " ").slice(0, 16);
const section = [
  "## Idle CPU of `npm start` (`npm run bench:idle`)",
  "",
  "The app started as `npm start` starts it (compiled supervisor, embedded PGlite, background work on",
  "LISTEN/NOTIFY with a 30 s safety poll, Next) on a fresh data folder; after it answers and settles for",
  `${SETTLE_S} s, the CPU time of its whole process tree (from \`/proc\`) over ${WINDOW_S} s. Target: under ${TARGET}% of one core.`,
  "",
  "| Date (UTC) | Idle CPU (% of one core) | Target | Ready after (incl. any build) | Load average (1/5/15 min) |",
  "| --- | --- | --- | --- | --- |",
  `| ${date} | ${percent.toFixed(2)}% | < ${TARGET}%: ${met ? "met" : "not met"} | ${(readyMs / 1000).toFixed(1)} s | ${load.join(" / ")} on ${os.cpus().length} cores |`,
  "",
].join("\n");
const doc = path.join(root, "docs/benchmarks.md");
let text = fs.readFileSync(doc, "utf8");
const start = text.indexOf("## Idle CPU of `npm start`");
if (start >= 0) {
  const next = text.indexOf("\n## ", start + 1);
  text = text.slice(0, start) + section + (next >= 0 ? text.slice(next + 1) : "");
} else text = `${text.trimEnd()}\n\n${section}`;
fs.writeFileSync(doc, text);
console.log("Wrote docs/benchmarks.md");
await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 10_000))]);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
