// The import boundary check (docs/architecture.md): dependency-cruiser with the rules of
// .dependency-cruiser.cjs over every source folder. Exits non-zero on any violation.
// `npm run lint:imports`; part of `npm run lint` and of the lint step of `npm test`.
// An optional argument checks another tree with the same rules (the planted-violation test).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");
const root = path.resolve(process.argv[2] ?? repo);
const sources = ["lib", "app", "components", "scripts", "test", "e2e", "bench", "proxy.ts"].filter((p) =>
  fs.existsSync(path.join(root, p)),
);
const args = [
  path.join(repo, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
  ...sources,
  "--config",
  path.join(repo, ".dependency-cruiser.cjs"),
  "--output-type",
  "err",
];
const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
