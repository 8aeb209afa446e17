// npm test: every test, the way CI runs it on a fresh clone. Plain Node (no dependencies):
// installs what is missing, then lint + typecheck + the import boundary check + the OpenAPI
// lint + the citation, configuration-doc and unused-export checks, the unit and integration
// suite on embedded PGlite and on the local PostgreSQL server, the Playwright
// end-to-end tests, and a smoke run of every benchmark (bench/smoke.mjs).
// Steps that do not share a database or a build go side by side: the lock file and the
// production build beside the lint step, then three lanes (PGlite, PostgreSQL, and the
// end-to-end step followed by the benchmark smoke runs). Each lane mostly waits on its own
// database, browser or server, so together they fill the two cores CI has (docs/development.md
// "Tests"). Their output is printed whole, one step after the other, as each ends.
// Flags: --no-e2e, --no-bench, --only=pglite|postgres|e2e|bench|lint|lock
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TIMED_FILES } from "../test/timed-files.mjs";
import { ensureInstalled } from "./ensure-installed.mjs";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.slice(7);
const want = (step) => (only ? only === step : !args.includes(`--no-${step}`));

/**
 * The machine's CPU counters (/proc/stat: busy and total jiffies of every core), so a step's
 * closing line says how busy the machine was while it ran: on two cores a step at 100% cannot
 * go faster beside another, one well under it leaves room (docs/development.md "Tests").
 * Counts every process, also a step's databases, browsers and servers.
 */
function cpuCounters() {
  try {
    const [, ...v] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    const idle = v[3] + (v[4] ?? 0);
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null; // no /proc (not Linux)
  }
}
function busySince(before) {
  const now = cpuCounters();
  if (!before || !now || now.total === before.total) return "";
  return `, machine ${Math.round((100 * (now.busy - before.busy)) / (now.total - before.total))}% busy`;
}

/**
 * A step beside others: its output goes to a file and is printed whole when it ends, so two
 * steps' lines never interleave. Resolves to whether it exited 0.
 */
function runBeside(label, cmd, cmdArgs, env = {}, cwd = root, { alone = false } = {}) {
  const log = path.join(os.tmpdir(), `switchboard-step-${process.pid}-${label.replace(/\W+/g, "-")}.log`);
  const out = fs.openSync(log, "w");
  const started = Date.now();
  const cpu = cpuCounters();
  const child = spawn(cmd, cmdArgs, { cwd, stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      fs.closeSync(out);
      console.log(`\n=== ${label}${alone ? "" : " (beside other steps)"} ===`);
      const output = fs.readFileSync(log);
      process.stdout.write(output);
      fs.rmSync(log, { force: true });
      // A step that fails outside its tests (vitest's main process ending on an unhandled
      // rejection, a crash) says why only in its own output, which a CI log's tail may not
      // reach: its last lines are printed again at the end.
      if (code !== 0) failedTails.push({ label, lines: lastLines(output.toString("utf8"), 40) });
      console.log(
        `=== ${label}: ${code === 0 ? "ok" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s${busySince(cpu)} ===`,
      );
      resolve(code === 0);
    });
  });
}

function run(label, cmd, cmdArgs, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const cpu = cpuCounters();
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  console.log(
    `=== ${label}: ${r.status === 0 ? "ok" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s${busySince(cpu)} ===`,
  );
  return r.status === 0;
}

const runStarted = Date.now();
const runCpu = cpuCounters();
// On a fresh clone (CI) the install is a real `npm ci` of the lock file, which is the lock-file
// check below: that step then does not install everything a second time.
const installedFromLock = ensureInstalled(root, { fromLock: true });

const bin = (name) => path.join(root, "node_modules/.bin", name);
const SERVER_BUNDLE =
  "const { ensureServerBuild } = await import('./scripts/build-server.mjs'); await ensureServerBuild(process.cwd(), 'worker');";
const counts = { passed: 0, failed: 0 };
const failures = [];
// Named again at the very end, where a CI log's tail shows them.
const failedTests = [];
// The head of a failure's message, colours removed: a CI log's tail is often all there is of a
// run (a matcher's first line says what failed, the next ones what was expected and received).
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
// Failed side-by-side steps' last lines (runBeside), colours removed.
const failedTails = [];
const lastLines = (text, n) =>
  text
    .replace(ANSI, "")
    .split("\n")
    .filter((l) => l.trim())
    .slice(-n)
    .join("\n");
const failureHead = (messages) =>
  String(messages?.[0] ?? "")
    .replace(ANSI, "")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, 8)
    .join("\n    ");

/**
 * One vitest run on `kind`: the whole suite (on PostgreSQL without the timed files, which run
 * alone after the lanes, test/timed-files.mjs), or `files` alone.
 */
async function vitest(kind, files = null) {
  const label = files ? `timed tests on ${kind}, alone` : `vitest on ${kind}`;
  const report = path.join(os.tmpdir(), `switchboard-vitest-${kind}${files ? "-timed" : ""}-${process.pid}.json`);
  const ok = await runBeside(
    label,
    bin("vitest"),
    [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      // The timed files one after the other, as on two cores: each with the machine to itself.
      ...(files ? ["--no-file-parallelism", ...files] : []),
    ],
    {
      TEST_DB: kind,
      ...(importsChecked ? { SWITCHBOARD_IMPORTS_CHECKED: "1" } : {}),
      ...(kind === "postgres" && !files ? { SWITCHBOARD_TIMED_LATER: "1" } : {}),
    },
    root,
    { alone: files !== null },
  );
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, "utf8"));
    counts.passed += r.numPassedTests;
    counts.failed += r.numFailedTests;
    for (const file of r.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failed)
        failedTests.push(
          `${kind}: ${path.relative(root, file.name)} › ${t.fullName}\n    ${failureHead(t.failureMessages)}`,
        );
      // A file that fails outside its tests (a hook, an import) has no failed assertion.
      if (file.status === "failed" && failed.length === 0)
        failedTests.push(`${kind}: ${path.relative(root, file.name)}\n    ${failureHead([file.message])}`);
    }
    fs.rmSync(report, { force: true });
  }
  if (!ok) failures.push(files ? `timed tests (${kind})` : `vitest (${kind})`);
}

// The lock file installs with `npm ci` as a deployment pipeline or a container build runs
// it on a fresh clone: package.json and package-lock.json alone, in an empty folder, a real
// install (packages from npm's cache or the registry; no install scripts, which a fresh
// clone's `npm start` runs itself). About 2 minutes on the shared 2-core machine, mostly
// writing ~800 MB (docs/deployment.md "Installing").
// Beside the lint step, which it does not touch.
/** Installed means installed: the packages the production start imports, missing from `dir`'s node_modules. */
const notInstalled = (dir) =>
  ["next", "esbuild", "@prisma/client", "pg"].filter(
    (name) => !fs.existsSync(path.join(dir, "node_modules", name, "package.json")),
  );

async function lockFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-npm-ci-"));
  for (const file of ["package.json", "package-lock.json", ".npmrc"]) {
    if (fs.existsSync(path.join(root, file))) fs.copyFileSync(path.join(root, file), path.join(dir, file));
  }
  const npm = ["ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"];
  const ok = await runBeside(
    "lock file (npm ci on a fresh copy of package.json and package-lock.json)",
    "npm",
    npm,
    { npm_config_loglevel: "error" },
    dir,
  ).then((exited) => {
    const missing = notInstalled(dir);
    if (missing.length) console.log(`lock file: not installed: ${missing.join(", ")}`);
    else if (!exited) console.log("lock file: npm ci failed: run npm run lock:complete");
    return exited && missing.length === 0;
  });
  fs.rmSync(dir, { recursive: true, force: true });
  if (!ok) failures.push("lock file");
}

let lockDone = Promise.resolve();
if (want("lock") && (only === "lock" || !installedFromLock)) lockDone = lockFile();
else if (want("lock")) {
  const missing = notInstalled(root);
  console.log(
    `\n=== lock file: ${missing.length ? `FAILED (not installed: ${missing.join(", ")})` : "ok"} (this run installed the fresh clone with npm ci from the lock) ===`,
  );
  if (missing.length) failures.push("lock file");
}
// The end-to-end step's production build (next build, 3-4 minutes of CPU) goes beside the
// rest of the lint step and the suites, which leave a share of the two cores idle while they
// wait on their databases; the e2e step then starts at once (scripts/e2e.mjs --no-build).
// It starts after tsc, which has checked the whole project with Next's route types (written by
// `next typegen` first): the build skips its own check of the same files (next.config.mjs).
const e2eWanted = want("e2e") && fs.existsSync(path.join(root, "scripts/e2e.mjs"));
let buildDone = null;
let typesChecked = false;
// The lint step's import boundary check passed on the whole tree: the suites' test of the same
// command on the same tree (test/import-boundaries.test.ts) is not run a second time.
let importsChecked = false;
const startBuild = () => {
  if (e2eWanted)
    buildDone = runBeside("build for the end-to-end step (next build)", bin("next"), ["build"], {
      NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1",
      ...(typesChecked ? { SWITCHBOARD_TYPES_CHECKED: "1" } : {}),
    });
};
if (want("lint")) {
  if (!run("lint (biome)", bin("biome"), ["check", "."])) failures.push("lint");
  // Next's route types (.next/types: each page's and route's exports checked against what Next
  // expects), which tsc's project includes, without a build.
  const typegen = run("route types (next typegen)", bin("next"), ["typegen"], {
    NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1",
  });
  if (!typegen) failures.push("route types");
  if (!run("typecheck (tsc)", bin("tsc"), ["--noEmit"])) failures.push("typecheck");
  else typesChecked = typegen;
  startBuild();
  if (run("import boundaries (dependency-cruiser)", "node", ["scripts/check-imports.mjs"])) importsChecked = true;
  else failures.push("imports");
  // The OpenAPI document lints with zero errors and zero warnings (docs/openapi.md).
  if (!run("OpenAPI lint (redocly)", bin("tsx"), ["scripts/lint-openapi.ts"], { LOG_LEVEL: "silent" })) {
    failures.push("openapi lint");
  }
  // Every cited document and section exists (docs/architecture.md "Citations") and
  // docs/configuration.md is what lib/core/env.ts gives.
  if (!run("citations", "node", ["scripts/check-citations.mjs"])) failures.push("citations");
  if (!run("configuration doc", bin("tsx"), ["scripts/configuration-doc.ts", "--check"])) {
    failures.push("configuration doc");
  }
  // No export that nothing imports (knip.json; docs/architecture.md "Dead code").
  if (!run("unused exports (knip)", bin("knip"), ["--include", "files,exports,types,duplicates"])) {
    failures.push("unused exports");
  }
}
if (!want("lint")) startBuild();
await lockDone;
// The compiled server bundle the suites' worker and CLI processes run (test/server-processes.ts),
// built here once when stale: the two suites would otherwise both build it at the same time.
if (
  (want("pglite") || want("postgres")) &&
  !run("server bundle", "node", ["--input-type=module", "-e", SERVER_BUNDLE])
) {
  failures.push("server bundle");
}
/**
 * The end-to-end lane (Playwright, the app, Chromium, then the benchmark smoke runs) at a lower
 * priority than the suites: the run is CPU-bound on CI's two cores, the suites are its longest
 * lanes and their timed tests (a broadcast's pace, an answer within seconds) failed when
 * starved, while the end-to-end lane ends minutes before them (docs/development.md "Tests").
 * Niceness 5, a third of the suites' share when both want a core, not a starving one. Declared
 * before the lanes start: they read it as soon as the build ends.
 */
const BESIDE_THE_SUITES = ["-n", "5"];
// Three lanes side by side: the two suites, and the end-to-end step followed by the benchmark
// smoke runs. Each lane mostly waits (a database, a browser, a server), so together they keep
// the two cores busy where one after the other left them half idle (docs/development.md "Tests").
await Promise.all([...["pglite", "postgres"].filter(want).map((kind) => vitest(kind)), endToEndThenBench()]);
// The PostgreSQL lane's timed files (a broadcast's pace, another customer's reads during a large
// start), with the machine to themselves: beside the other lanes they measured the starved machine,
// not the product (test/timed-files.mjs). About 20 s more.
if (want("postgres")) await vitest("postgres", TIMED_FILES);

async function endToEndThenBench() {
  const built = buildDone ? await buildDone : false;
  if (buildDone && !built) failures.push("build");
  if (built) await endToEnd();
  // Every bench:* script once at tiny sizes (docs/benchmarks.md "Smoke runs"): a benchmark that
  // no longer runs fails here, not months later. After the e2e step, whose build the benches
  // that start the app (idle, start, memory, events) reuse.
  if (
    want("bench") &&
    !(await runBeside("benchmark smoke runs", "nice", [...BESIDE_THE_SUITES, "node", "bench/smoke.mjs"]))
  ) {
    failures.push("benchmark smoke runs");
  }
}

async function endToEnd() {
  const report = path.join(os.tmpdir(), `switchboard-e2e-${process.pid}.json`);
  const ok = await runBeside(
    "end-to-end (Playwright)",
    "nice",
    [...BESIDE_THE_SUITES, "node", "scripts/e2e.mjs", "--no-build"],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
  );
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, "utf8"));
    counts.passed += r.stats?.expected ?? 0;
    counts.failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === "unexpected" || t.status === "flaky") {
            failedTests.push(
              `e2e: ${spec.file}:${spec.line} › ${spec.title} (${t.status})\n    ${failureHead(t.results?.map((x) => x.error?.message))}`,
            );
          }
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of r.suites ?? []) walk(suite);
    fs.rmSync(report, { force: true });
  }
  if (!ok) failures.push("e2e");
}

for (const { label, lines } of failedTails) console.log(`\nThe last lines of "${label}":\n${lines}`);
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
console.log(`\n${failures.length ? `Failed steps: ${failures.join(", ")}` : "All steps passed."}`);
console.log(`${counts.passed} passed, ${counts.failed} failed`);
console.log(`npm test took ${Math.round((Date.now() - runStarted) / 1000)} s${busySince(runCpu)}`);
process.exit(failures.length || counts.failed ? 1 : 0);
