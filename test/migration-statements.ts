// The statements of a migration's SQL, for tests that run a backfill again over rows made to look
// as the upgrade found them (lib/domains/support/business-backfill.test.ts, label-report.test.ts).
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR } from "@/lib/db/migrate";

/**
 * The statements of migration `name`, comments dropped, split where a line ends with ";" (so not
 * for function bodies); `part` keeps the text from the line starting `from` up to the one starting `to`.
 */
export function migrationStatements(name: string, part?: { from: string; to: string }): string[] {
  let sql = fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
  if (part) {
    const start = sql.indexOf(part.from);
    const end = sql.indexOf(part.to, start);
    if (start < 0 || end < 0) throw new Error(`migration ${name} has no part from "${part.from}" to "${part.to}"`);
    sql = sql.slice(start, end);
  }
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s.length > 0);
}
