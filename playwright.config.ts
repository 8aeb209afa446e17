// End-to-end tests against the built app (next build + the supervisor running next start)
// on a fresh embedded data folder, so the demo account is seeded anew each run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { appEnv } from "./e2e/app-env";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "switchboard-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one folder
const executablePath = process.env.E2E_CHROMIUM || undefined;

/**
 * Specs that touch no data of the demo account's other tests: each signs up an account of
 * its own, (live updates) adds conversations of its own contacts to the demo inbox while it
 * mostly waits on a stream, or only reads pages (every page at 390 px, the docs pages, the
 * integrator docs). They run beside the demo account's tests.
 */
const BESIDE = [
  /api-reference\.spec\.ts/,
  /client-address\.spec\.ts/,
  /integrator-docs\.spec\.ts/,
  /live-updates\.spec\.ts/,
  /narrow-screens\.spec\.ts/,
  /onboarding\.spec\.ts/,
  /other-pages\.spec\.ts/,
  /quickstart\.spec\.ts/,
  /security\.spec\.ts/,
  /signup\.spec\.ts/,
];

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two lanes, each one test at a time: the demo account's tests in order (they share its
  // data: an export counts its messages while no other test sends), and beside them the
  // tests that sign up accounts of their own and the inbox left open for minutes, which
  // mostly wait (docs/development.md "Tests").
  workers: 2,
  retries: 0,
  // npm test reads the JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) to count and name failures.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  // The server-restart test stops the app and starts it again: it runs after every other test.
  projects: [
    { name: "app", testIgnore: [/server-restart\.spec\.ts/, ...BESIDE], workers: 1 },
    { name: "beside", testMatch: BESIDE, workers: 1 },
    { name: "server restart", testMatch: /server-restart\.spec\.ts/, dependencies: ["app", "beside"] },
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "off",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        // V8 without its helper threads (concurrent marking and compilation): the same pages and
        // scripts for less of the browser's CPU on the CI's two busy cores, where those threads only
        // took turns with the rest of the run: a fifth less on a probe of page loads and axe checks,
        // a few per cent in a whole run (docs/development.md "Tests").
        "--js-flags=--single-threaded",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // What `npm start` runs: the compiled supervisor (built by scripts/run.mjs when stale).
    command: "node scripts/run.mjs supervisor",
    url: `http://localhost:${port}/login`,
    // First start migrates and seeds the demo (50k billing records): ~60 s quiet, longer on a busy machine.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: appEnv(port, dataDir),
  },
});
