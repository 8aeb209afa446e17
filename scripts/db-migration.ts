// npm run db:migration -- <name>: diff the schema the migrations already produce
// (prisma/migrations/schema.snapshot.prisma) against prisma/schema.prisma, offline,
// and write the SQL as a new migration. See docs/database.md "Migrations".
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (name: lower-case letters, digits, _)");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const dir = path.join(root, "prisma/migrations");
const snapshot = path.join(dir, "schema.snapshot.prisma");
const schema = path.join(root, "prisma/schema.prisma");
fs.mkdirSync(dir, { recursive: true });

const from = fs.existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
const out = execFileSync(
  path.join(root, "node_modules/.bin/prisma"),
  ["migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
// The CLI may print non-SQL lines (e.g. "Loaded Prisma config") on stdout.
const sql = out
  .split("\n")
  .filter((l) => !/^(Loaded Prisma config|Prisma config detected)/.test(l))
  .join("\n")
  .trim();
if (!sql || sql === "-- This is an empty migration.") {
  console.log("No schema changes: nothing to write.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const target = path.join(dir, `${stamp}_${name}`);
fs.mkdirSync(target);
fs.writeFileSync(path.join(target, "migration.sql"), `${sql}\n`);
fs.copyFileSync(schema, snapshot);
console.log(`Wrote ${path.relative(root, target)}/migration.sql`);
