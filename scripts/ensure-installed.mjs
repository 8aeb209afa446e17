// Installs dependencies and generates the Prisma client when they are missing or stale.
// Plain Node (no dependencies), shared by `npm start` and `npm test`.
// `npm install`: with a lock file present it installs exactly what it pins (and leaves
// the lock file as it is when package.json has not changed). `npm ci` works too (the lock
// carries every platform's optional packages: scripts/complete-lock.mjs, checked by
// npm test's "lock file" step).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

/**
 * `fromLock`: a checkout with no node_modules at all (a fresh clone) installs with `npm ci`,
 * which fails rather than fix a lock file that is incomplete or out of step with package.json.
 * Returns whether that `npm ci` ran and succeeded: npm test then has its lock-file check.
 */
export function ensureInstalled(root, { fromLock = false } = {}) {
  const run = (label, cmd, args) => {
    console.log(label);
    const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  };
  const installed = path.join(root, "node_modules/.package-lock.json");
  let installedFromLock = false;
  if (fromLock && !fs.existsSync(path.join(root, "node_modules"))) {
    run(
      "Installing dependencies from the lock file (npm ci; if it fails, the lock file is out of step with package.json or incomplete: npm run lock:complete)…",
      "npm",
      ["ci", "--no-audit", "--no-fund"],
    );
    installedFromLock = true;
  } else if (!fs.existsSync(installed) || mtime(path.join(root, "package-lock.json")) > mtime(installed)) {
    run("Installing dependencies (npm install)…", "npm", ["install", "--no-audit", "--no-fund"]);
  }
  if (!fs.existsSync(path.join(root, "lib/generated/prisma/client.ts"))) {
    run("Generating the Prisma client…", "npx", ["prisma", "generate"]);
  }
  return installedFromLock;
}
