// Loaded with `node --import` into the app's processes by `npm run bench:idle -- --profile`
// (Node refuses --cpu-prof in NODE_OPTIONS, so the profiler is started from here): a CPU
// profile of the server process (node:inspector, in process) and the time each SQL statement
// reached pg (a monotonic clock, the profile's own), written to $BENCH_PROFILE_DIR as
// <pid>.cpuprofile and census-<pid>.json at exit, so the idle window's CPU and statements can
// be told apart by what sent them (bench/idle.ts). Plain JavaScript: the app's bundle runs
// without tsx.
import fs from "node:fs";
import inspector from "node:inspector";
import { createRequire } from "node:module";
import path from "node:path";

const dir = process.env.BENCH_PROFILE_DIR;
// Only the server process (the supervisor) is profiled: a profiler in Next's processes costs
// CPU of its own and tells nothing about the server's idle work.
if (dir && /supervisor\.(mjs|ts)$/.test(process.argv[1] ?? "")) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");

  const require = createRequire(path.join(process.cwd(), "package.json"));
  let pg;
  try {
    pg = require("pg");
  } catch {} // a process of the tree that cannot load pg sends no SQL
  const seen = [];
  const original = pg?.Client.prototype.query;
  if (pg)
    pg.Client.prototype.query = function counted(...args) {
      const config = args[0];
      const text = typeof config === "string" ? config : config?.text;
      if (text && seen.length < 200_000)
        seen.push([Number(process.hrtime.bigint() / 1000n), text.replace(/\s+/g, " ").trim().slice(0, 160)]);
      return original.apply(this, args);
    };
  process.on("exit", () => {
    // A session on this thread answers synchronously: the profile is written before the process ends.
    session.post("Profiler.stop", (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
    if (seen.length) fs.writeFileSync(path.join(dir, `census-${process.pid}.json`), JSON.stringify(seen));
  });
}
