// The plain transaction of the automation runner (lib/db/plain-tx.ts): Prisma's raw calls
// answered by plain pg statements in one transaction; a model call hands the whole work over
// to a Prisma transaction, the plain one rolled back.
import { describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { db, type Tx } from "./index";
import { NeedsPrisma, plainOrPrismaTransaction } from "./plain-tx";
import { newId } from "./sql";

const jobKey = () => `test.plain-tx.${newId("")}`;
const insertJob = (tx: Tx, key: string) =>
  tx.$executeRaw(Prisma.sql`INSERT INTO "ScheduledJob" (id, "customerId", kind, key, "dueAt", payload, status, attempts, "createdAt", "updatedAt")
    VALUES (${newId("job_")}, 'c', 'test.plain-tx', ${key}, ${new Date()}::timestamp(3), '{}'::jsonb, 'PENDING', 0, now(), now())`);
const jobs = (key: string) => db.scheduledJob.count({ where: { key } });
const viaPrisma = <T>(work: (tx: Tx) => Promise<T>) => db.$transaction(work);

describe("plainOrPrismaTransaction", () => {
  it("raw calls (a Prisma.sql value, a tagged template, the Unsafe forms) run and commit together", async () => {
    const key = jobKey();
    const calls: string[] = [];
    const result = await plainOrPrismaTransaction(
      async (tx) => {
        calls.push("plain");
        expect(await insertJob(tx, key)).toBe(1);
        const [row] = await tx.$queryRaw<{ n: number; at: Date }[]>`SELECT count(*)::int AS n, max("dueAt") AS at
          FROM "ScheduledJob" WHERE key = ${key}`;
        expect(row?.n).toBe(1);
        expect(row?.at).toBeInstanceOf(Date);
        const rows = await tx.$queryRawUnsafe<{ key: string }[]>(`SELECT key FROM "ScheduledJob" WHERE key = $1`, key);
        expect(rows).toEqual([{ key }]);
        expect(await tx.$executeRawUnsafe(`UPDATE "ScheduledJob" SET attempts = 1 WHERE key = $1`, key)).toBe(1);
        return "done";
      },
      (work) => {
        calls.push("prisma");
        return viaPrisma(work);
      },
    );
    expect(result).toBe("done");
    expect(calls).toEqual(["plain"]);
    expect(await db.scheduledJob.findUniqueOrThrow({ where: { key } })).toMatchObject({ attempts: 1 });
  });

  it("a model call: what the plain transaction wrote is rolled back and the work runs once in Prisma", async () => {
    const key = jobKey();
    const calls: string[] = [];
    await plainOrPrismaTransaction(
      async (tx) => {
        await insertJob(tx, key);
        await tx.scheduledJob.count({ where: { key } });
        calls.push("after the model call");
      },
      (work) => {
        calls.push("prisma");
        return viaPrisma(work);
      },
    );
    expect(calls).toEqual(["prisma", "after the model call"]);
    expect(await jobs(key)).toBe(1);
  });

  it("an error rolls the plain transaction back and is thrown, not run again", async () => {
    const key = jobKey();
    let prisma = 0;
    await expect(
      plainOrPrismaTransaction(
        async (tx) => {
          await insertJob(tx, key);
          throw new Error("boom");
        },
        (work) => {
          prisma += 1;
          return viaPrisma(work);
        },
      ),
    ).rejects.toThrow("boom");
    expect(prisma).toBe(0);
    expect(await jobs(key)).toBe(0);
    expect(new NeedsPrisma("user").message).toContain("user");
  });
});
