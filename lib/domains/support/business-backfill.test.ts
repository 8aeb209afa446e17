// The business seconds of support figures written before their columns existed are filled by
// migration 20261129224500_support_business_seconds_backfill (docs/reports.md "Business hours"):
// each equals what hours.ts computes for the same instants under the account's hours; figures
// written since, accounts without hours and figures already set are left alone. The migration's
// statements run again here, on the suite's database (PGlite or PostgreSQL), over rows made to
// look as the upgrade found them.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type BusinessHours, businessSecondsBetween } from "@/lib/domains/business-hours/hours";
import { contactWrites } from "@/test/conversation-fixtures";
import { uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { migrationStatements } from "@/test/migration-statements";

const MIGRATION = "20261129224500_support_business_seconds_backfill";

async function runBackfill() {
  const statements = migrationStatements(MIGRATION);
  expect(statements).toHaveLength(3);
  for (const statement of statements) await db.$executeRawUnsafe(statement);
}

const HOURS: BusinessHours = {
  timezone: "Europe/Berlin",
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
  holidays: ["2026-10-30"],
};

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

/** A closed period with a first and a next response and no business seconds, as the upgrade found it. */
async function oldPeriod(
  t: Customer,
  times: { start: string; first: string; wait: string; next: string; end: string },
) {
  const contact = uniquePhone();
  await contactWrites(t.sender, contact, "hi");
  const c = await db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
  const id = `sp_backfill_${Math.random().toString(36).slice(2)}`;
  const at = (s: string) => new Date(s);
  const secs = (a: string, b: string) => Math.floor((at(b).getTime() - at(a).getTime()) / 1000);
  await db.supportPeriod.create({
    data: {
      id,
      customerId: t.customer.id,
      senderId: t.sender.id,
      conversationId: c.id,
      startedAt: at(times.start),
      firstResponseAt: at(times.first),
      firstResponseSeconds: secs(times.start, times.first),
      firstResponder: "api",
      resolvedAt: at(times.end),
      resolutionSeconds: secs(times.start, times.end),
      inboundCount: 2,
      replyCount: 2,
    },
  });
  for (const [first, from, to] of [
    [true, times.start, times.first],
    [false, times.wait, times.next],
  ] as const) {
    await db.supportResponse.create({
      data: {
        id: `sr_backfill_${Math.random().toString(36).slice(2)}`,
        customerId: t.customer.id,
        senderId: t.sender.id,
        periodId: id,
        first,
        waitedFrom: at(from),
        respondedAt: at(to),
        seconds: secs(from, to),
        responder: "api",
      },
    });
  }
  return id;
}

const figuresOf = async (periodId: string) => {
  const p = await db.supportPeriod.findUniqueOrThrow({ where: { id: periodId } });
  const r = await db.supportResponse.findMany({ where: { periodId }, orderBy: { waitedFrom: "asc" } });
  return {
    firstResponse: p.firstResponseBusinessSeconds,
    resolution: p.resolutionBusinessSeconds,
    responses: r.map((x) => x.businessSeconds),
  };
};

describe("the business seconds backfill", () => {
  it("fills the figures written before the columns, equal to hours.ts; leaves later ones, set ones and accounts without hours", async () => {
    const t = await messagingCustomer();
    const without = await messagingCustomer();
    await db.customer.update({ where: { id: t.customer.id }, data: { businessHours: HOURS } });
    // Friday evening to Monday morning across a holiday and a weekend, then a next wait over a
    // night and the close on Tuesday; the clocks went back on the Sunday between (25 October).
    const times = {
      start: "2026-10-23T15:30:00.000Z",
      first: "2026-10-26T08:15:00.000Z",
      wait: "2026-10-29T15:45:00.000Z",
      next: "2026-11-02T09:10:00.000Z",
      end: "2026-11-03T10:00:30.000Z",
    };
    const old = await oldPeriod(t, times);
    const other = await oldPeriod(without, times);
    // Written after the columns came (on this database, when its migrations ran) while the
    // account had no hours: stays null.
    const [columns] = await db.$queryRaw<{ at: Date }[]>`
      SELECT "finished_at" AS at FROM "_prisma_migrations"
      WHERE "migration_name" = '20261129184000_support_business_seconds'`;
    if (!columns) throw new Error("the business seconds migration is not recorded");
    const since = (minutes: number) => new Date(columns.at.getTime() + minutes * 60_000).toISOString();
    const recent = await oldPeriod(t, {
      start: since(1),
      first: since(61),
      wait: since(62),
      next: since(122),
      end: since(123),
    });
    // Set when written: not rewritten.
    const set = await oldPeriod(t, times);
    await db.supportPeriod.update({
      where: { id: set },
      data: { firstResponseBusinessSeconds: 7, resolutionBusinessSeconds: 8 },
    });
    await db.supportResponse.updateMany({ where: { periodId: set }, data: { businessSeconds: 9 } });

    await runBackfill();

    const between = (a: string, b: string) => businessSecondsBetween(new Date(a), new Date(b), HOURS);
    const expected = {
      firstResponse: between(times.start, times.first),
      resolution: between(times.start, times.end),
      responses: [between(times.start, times.first), between(times.wait, times.next)],
    };
    expect(await figuresOf(old)).toEqual(expected);
    // By hand (Berlin, weekdays 09:00-17:00, 30 October a holiday): Friday 17:30-18:00 CEST is
    // after closing, so the first wait counts Monday 09:00-09:15 CET only.
    expect(expected.firstResponse).toBe(900);
    expect(await figuresOf(other)).toEqual({ firstResponse: null, resolution: null, responses: [null, null] });
    expect(await figuresOf(recent)).toEqual({ firstResponse: null, resolution: null, responses: [null, null] });
    expect(await figuresOf(set)).toEqual({ firstResponse: 7, resolution: 8, responses: [9, 9] });

    // Run again (a second migrator, or the statements replayed): nothing changes.
    await runBackfill();
    expect(await figuresOf(old)).toEqual(expected);
  });
});
