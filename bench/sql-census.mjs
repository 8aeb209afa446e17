// Loaded with `node --import` into the app's processes by `npm run bench:idle -- --profile`:
// records when each SQL statement reached pg (a monotonic clock, the CPU profiles' own) and
// writes them to $BENCH_CENSUS_DIR/census-<pid>.json at exit, so the idle window's
// statements can be counted by what sent them (bench/idle.ts). Plain JavaScript: the app's
// bundle runs without tsx.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const dir = process.env.BENCH_CENSUS_DIR;
if (dir) {
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
    if (seen.length) fs.writeFileSync(path.join(dir, `census-${process.pid}.json`), JSON.stringify(seen));
  });
}
