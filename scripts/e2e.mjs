// npm run test:e2e: finds or installs a Chromium, builds the app once, runs Playwright.
// The Playwright config starts the app (supervisor + next start) on a fresh data folder.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });

// Debian's chromium-headless-shell (Chromium's old headless mode, no browser UI) draws the same
// pages as the full browser for about a sixth less CPU over the suite's specs; the full
// chromium is the fallback (docs/development.md "Tests").
const CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

function findChromium() {
  if (process.env.E2E_CHROMIUM && fs.existsSync(process.env.E2E_CHROMIUM)) return process.env.E2E_CHROMIUM;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && fs.existsSync("/usr/bin/apt-get") && !fs.existsSync(CANDIDATES[0])) {
    console.log("Installing Debian's chromium-headless-shell (apt-get)…");
    if (
      run("apt-get", ["update"]).status !== 0 ||
      run("apt-get", ["install", "-y", "chromium-headless-shell"]).status !== 0
    ) {
      console.log("Could not install chromium-headless-shell: trying the full chromium.");
      if (!CANDIDATES.slice(1).some((p) => fs.existsSync(p))) run("apt-get", ["install", "-y", "chromium"]);
    }
  }
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? ""; // else Playwright's own browser, when installed
}

const chromium = findChromium();
console.log(chromium ? `Using Chromium at ${chromium}` : "Using Playwright's own Chromium");

if (!process.argv.includes("--no-build")) {
  console.log("Building the app (next build)…");
  const build = run(path.join(root, "node_modules/.bin/next"), ["build"], {
    NEXT_TELEMETRY_DISABLED: "1",
    ...process.env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const args = process.argv.slice(2).filter((a) => a !== "--no-build");
const result = run(path.join(root, "node_modules/.bin/playwright"), ["test", ...args], {
  ...process.env,
  E2E_CHROMIUM: chromium,
});
process.exit(result.status ?? 1);
