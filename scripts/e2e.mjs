// npm run test:e2e: finds or installs a Chromium, builds the app once, runs Playwright.
// The Playwright config starts the app (supervisor + next start) on a fresh data folder.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });

function findChromium() {
  if (process.env.E2E_CHROMIUM && fs.existsSync(process.env.E2E_CHROMIUM)) return process.env.E2E_CHROMIUM;
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    if (fs.existsSync(p)) return p;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && fs.existsSync("/usr/bin/apt-get")) {
    console.log("Installing Debian's Chromium (apt-get)…");
    if (run("apt-get", ["update"]).status === 0 && run("apt-get", ["install", "-y", "chromium"]).status === 0) {
      if (fs.existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
    }
  }
  return ""; // fall back to Playwright's own browser, when one is installed
}

const chromium = findChromium();
console.log(chromium ? `Using Chromium at ${chromium}` : "Using Playwright's own Chromium");

if (!process.argv.includes("--no-build")) {
  console.log("Building the app (next build)…");
  const build = run(path.join(root, "node_modules/.bin/next"), ["build"]);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const args = process.argv.slice(2).filter((a) => a !== "--no-build");
const result = run(path.join(root, "node_modules/.bin/playwright"), ["test", ...args], {
  ...process.env,
  E2E_CHROMIUM: chromium,
});
process.exit(result.status ?? 1);
