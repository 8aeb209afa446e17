// Prisma CLI offline: the WASM schema engine (engine "js") needs a driver adapter; an
// in-memory PGlite serves. Only `generate` and `migrate diff` are used (docs/database.md "Migrations").
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// The schema names env("DATABASE_URL"); without a value the CLI falls back to
// downloading a native engine. Nothing connects with it.
process.env.DATABASE_URL ??= "postgresql://localhost/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  // pglite-prisma-adapter pins its own copy of Prisma's adapter types.
  adapter: async () => new PrismaPGlite(new PGlite()) as never,
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
