// npm start / npm run dev: the one command that runs Switchboard on a fresh clone.
// Plain Node (no dependencies): installs what is missing, builds when sources changed,
// then hands over to the supervisor (embedded database, worker, Next server). --build-only
// stops after the builds.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildServer, serverBuildStale } from "./build-server.mjs";
import { ensureInstalled } from "./ensure-installed.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const run = (cmd, args) => {
  // Next's build reports anonymous usage to Vercel unless told not to (scripts/supervisor.ts).
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: "inherit",
    env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

ensureInstalled(root);

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".next", ".data", "generated", ".git"].includes(entry.name)) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : mtime(p));
  }
  return newest;
}
if (!dev) {
  const buildId = path.join(root, ".next/BUILD_ID");
  const sources = ["app", "components", "lib", "next.config.mjs", "package-lock.json"].map((p) => path.join(root, p));
  const newest = Math.max(
    ...sources.map((p) => (fs.existsSync(p) && fs.statSync(p).isDirectory() ? newestSource(p) : mtime(p))),
  );
  if (!fs.existsSync(buildId) || newest > mtime(buildId)) {
    console.log("Building the app (next build)…");
    run("npx", ["next", "build"]);
  }
}

// Production runs the compiled supervisor (scripts/build-server.mjs, rebuilt when its
// sources changed); dev keeps tsx.
let command = [path.join(root, "node_modules/.bin/tsx"), "scripts/supervisor.ts", "--dev"];
if (!dev) {
  if (serverBuildStale(root)) {
    console.log("Building the server (esbuild)…");
    await buildServer(root);
  }
  command = [process.execPath, path.join(root, ".build/server/supervisor.mjs")];
}
// --build-only: what is stale is built, nothing started (the benchmarks' smoke runs build once,
// then start the app several times at once: bench/smoke.mjs).
if (process.argv.includes("--build-only")) process.exit(0);
const child = spawn(command[0], command.slice(1), { cwd: root, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
