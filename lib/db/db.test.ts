import { afterEach, describe, expect, it } from "vitest";
import { inputErrorFrom } from "@/lib/core/errors";
import { db, hotPrepared, hotRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

describe("database", () => {
  it("has the migrated schema", async () => {
    const c = await db.customer.create({ data: { name: "Probe" } });
    expect(await db.customer.findUnique({ where: { id: c.id } })).toMatchObject({ name: "Probe", plan: "pro" });
  });
});

describe("hotRows (plain pg on Prisma's pool)", () => {
  const tz = process.env.TZ;
  afterEach(() => {
    // Unset stays unset: assigning undefined would set the string "undefined".
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it("reads and writes timestamps as UTC whatever the process time zone", async () => {
    process.env.TZ = "Asia/Kolkata"; // +05:30: a local-time reading would be off by hours
    const at = new Date("2026-01-01T10:00:00.123Z");
    const c = await db.customer.create({ data: { name: "Hot probe", createdAt: at } });
    const [row] = await hotRows<{ createdAt: Date; same: boolean; n: number; amount: string }>(
      Prisma.sql`SELECT "createdAt", "createdAt" = ${at} AS "same", 2::int AS "n", 1.5::numeric(12,6) AS "amount"
        FROM "Customer" WHERE "id" = ${c.id}`,
    );
    expect(row?.createdAt.toISOString()).toBe("2026-01-01T10:00:00.123Z");
    expect(row?.same).toBe(true);
    expect(row?.n).toBe(2);
    expect(row?.amount).toBe("1.500000");
  });
});

describe("a NUL byte that reaches the database", () => {
  it("is the caller's VALIDATION_FAILED, through Prisma and through hotRows", async () => {
    const viaPrisma = await db.customer.findFirst({ where: { name: "a\u0000b" } }).catch((e: unknown) => e);
    const viaPg = await hotRows(Prisma.sql`SELECT ${"a\u0000b"}::text`).catch((e: unknown) => e);
    for (const error of [viaPrisma, viaPg]) {
      expect(error).toBeInstanceOf(Error);
      expect(inputErrorFrom(error)?.code).toBe("VALIDATION_FAILED");
    }
    expect(inputErrorFrom(new Error("connection refused"))).toBeUndefined();
  });
});

describe("hotPrepared", () => {
  const embedded = (process.env.TEST_DB ?? "pglite") === "pglite";

  it(
    embedded
      ? "runs unnamed on the embedded database, whose one session every process shares (no names to collide or pile up)"
      : "prepares on a PostgreSQL server's own connection and answers the same as hotRows",
    async () => {
      const name = `probe_${Date.now()}`;
      const statement = { text: "SELECT $1::int + 1 AS n", values: [41] };
      for (let i = 0; i < 3; i++) expect(await hotPrepared<{ n: number }>(name, statement)).toEqual([{ n: 42 }]);
      const [{ named }] = await hotRows<{ named: number }>({
        text: "SELECT count(*)::int AS named FROM pg_prepared_statements WHERE name LIKE $1",
        values: [`${name}%`],
      });
      // A server's pg_prepared_statements lists this session's only: the pool's connection may differ.
      if (embedded) expect(named).toBe(0);
    },
  );
});
