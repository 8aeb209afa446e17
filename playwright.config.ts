// End-to-end tests against the built app (next build + the supervisor running next start)
// on a fresh embedded data folder, so the demo account is seeded anew each run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "switchboard-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one folder
const executablePath = process.env.E2E_CHROMIUM || undefined;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // npm test reads the JSON report (PLAYWRIGHT_JSON_OUTPUT_NAME) to count and name failures.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
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
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      // The suite signs in many times from one address.
      RATE_LIMIT_GLOBAL: "100000",
      // ... and signs up about a dozen accounts from its one browser (the default allows 10 an hour).
      RATE_LIMIT_SIGNUP_IP: "100",
      // The composer test watches a message reach "read": no random failures or unread ends.
      SIMULATOR_FAILURE_RATE: "0",
      SIMULATOR_READ_RATE: "1",
      // Simulated contacts do not answer on their own: the inbox tests decide who writes.
      SIMULATOR_REPLY_RATE: "0",
      // No random marketing-cap failures (131049): a test that wants them sets sim().options.marketingCapRate.
      SIMULATOR_MARKETING_CAP_RATE: "0",
    },
  },
});
