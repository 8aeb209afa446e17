// Migrations and schema must not drift: the catalog that prisma/migrations builds (applied by
// our runner) must equal the one that `prisma migrate diff --from-empty` derives from
// prisma/schema.prisma. Two in-memory PGlite databases, so it runs the same in both suites.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startEmbedded } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

const root = path.resolve(import.meta.dirname, "..");

const CATALOG: Record<string, string> = {
  columns: `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
                   character_maximum_length, numeric_precision, numeric_scale, datetime_precision
              FROM information_schema.columns
             WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
             ORDER BY table_name, column_name`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes
             WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
             ORDER BY tablename, indexname`,
  constraints: `SELECT t.relname AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition
                  FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                  JOIN pg_namespace n ON n.oid = t.relnamespace
                 WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
                 ORDER BY t.relname, c.conname`,
  enums: `SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
            FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
            JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`,
};

type Catalog = Record<string, unknown[]>;

async function catalogOf(query: (sql: string) => Promise<unknown[]>): Promise<Catalog> {
  const out: Catalog = {};
  for (const [name, sql] of Object.entries(CATALOG)) out[name] = await query(sql);
  return out;
}

async function schemaSql(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    path.join(root, "node_modules/.bin/prisma"),
    ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout
    .split("\n")
    .filter((line) => !/^(Loaded Prisma config|Prisma config detected)/.test(line))
    .join("\n");
}

async function migratedCatalog(): Promise<Catalog> {
  const server = await startEmbedded(undefined, { maxConnections: 4 });
  try {
    const applied = await migrate(server.url);
    expect(applied.length).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      return await catalogOf(async (sql) => (await client.query(sql)).rows);
    } finally {
      await client.end();
    }
  } finally {
    await server.close();
  }
}

async function schemaCatalog(): Promise<Catalog> {
  const sql = await schemaSql();
  expect(sql).toContain("CREATE TABLE");
  const db = new PGlite();
  try {
    await db.exec(sql);
    return await catalogOf(async (q) => (await db.query(q)).rows);
  } finally {
    await db.close();
  }
}

describe("migrations", () => {
  it("build exactly the schema of prisma/schema.prisma", { timeout: 120_000 }, async () => {
    const [fromMigrations, fromSchema] = await Promise.all([migratedCatalog(), schemaCatalog()]);
    expect(fromSchema.columns.length).toBeGreaterThan(50);
    expect(fromSchema.indexes.length).toBeGreaterThan(20);
    expect(fromSchema.enums.length).toBeGreaterThan(3);
    for (const part of Object.keys(CATALOG)) {
      expect(fromMigrations[part], `${part} differ: run \`npm run db:migration -- <name>\``).toEqual(fromSchema[part]);
    }
  });
});
