// The smoke run of every benchmark (docs/benchmarks.md "Smoke runs"), the bench step of
// `npm test`: each `bench:*` script of package.json (but bench:all) with --smoke, a few at a
// time, each with a time limit. A smoke run drives the bench's real code path end to end at
// tiny sizes and fails on an error, never on a missed target: a benchmark cannot rot unseen.
// Each script's output is printed whole when it ends (not interleaved); the exit code is 1
// when any failed. Flags: --only=api,send (just those), --jobs=N (default 4: most of a smoke
// run is waiting for servers to start and databases to be made, so more run than there are cores).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const jobs = Number(args.find((a) => a.startsWith("--jobs="))?.slice(7) ?? 4);
// A limit for a hung run, not an expected time: most smoke runs take under a minute, bench:start
// (three starts of the app, the first seeding the demo, then the CLI) about four beside the
// suites on CI's two cores, where it was once stopped at 240 s with every figure printed (2026-11-30).
const LIMIT_MS = Number(process.env.BENCH_SMOKE_LIMIT_MS ?? 480_000);

const STARTS_THE_APP = ["start", "idle"];
const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts)
  .filter((s) => s.startsWith("bench:") && s !== "bench:all")
  .map((s) => s.slice("bench:".length))
  .filter((s) => !only || only.includes(s))
  // The ones that start the whole app (a demo seed, Next) take longest: they go first.
  .sort((a, b) => Number(STARTS_THE_APP.includes(b)) - Number(STARTS_THE_APP.includes(a)));

/** Runs `npm run -s bench:<name> -- --smoke`; resolves with its exit code, seconds and output. */
function smokeRun(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", `bench:${name}`, "--", "--smoke"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: a run past its limit is stopped with everything it started
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {} // gone already
    }, LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (timedOut)
        output += `\nbench:${name} --smoke was stopped after ${LIMIT_MS / 1000} s (a smoke run takes a minute or a few)\n`;
      resolve({ name, code: timedOut ? 1 : (code ?? 1), seconds, output });
    });
  });
}

const started = Date.now();
// Several benches start the app (npm start) or Next at once: what is stale is built once, first.
const build = spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.log("Smoke runs: the build failed");
  process.exit(1);
}
console.log(`Smoke runs of ${scripts.map((s) => `bench:${s}`).join(", ")}, ${jobs} at a time`);
const results = [];
const queue = [...scripts];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const r = await smokeRun(name);
      results.push(r);
      console.log(`\n--- bench:${name} --smoke: ${r.code === 0 ? "ok" : "FAILED"} in ${r.seconds} s ---`);
      process.stdout.write(r.output.endsWith("\n") ? r.output : `${r.output}\n`);
    }
  }),
);
const failed = results.filter((r) => r.code !== 0);
console.log(
  `\nSmoke runs: ${results.length - failed.length} of ${results.length} ok in ${Math.round((Date.now() - started) / 1000)} s` +
    (failed.length ? `; failed: ${failed.map((r) => `bench:${r.name}`).join(", ")}` : ""),
);
process.exit(failed.length ? 1 : 0);
