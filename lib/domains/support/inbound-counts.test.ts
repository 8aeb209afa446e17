// The heatmap's inbound counts (docs/reports.md "How the heatmap counts"): kept by triggers on
// the thread entries whoever writes them (the callback path, direct SQL inserts, deletes and
// updates), exact before and after the worker's fold, a zone 45 minutes off the hour cut at
// its midnights, per sender, and nothing counted twice or lost with folds and inserts at once.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startWorker } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { foldInboundCounts, inboundCountFolding } from "@/lib/domains/support/inbound-counts";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";

type Cell = { weekday: number; hour: number; inbound: number };
type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

async function heatmap(token: string, query: Record<string, string>): Promise<Cell[]> {
  const res = await call("GET", "/api/v3/reports/support/heatmap", { token, query });
  expect(res.status).toBe(200);
  return (res.body.data.cells as Cell[]).filter((c) => c.inbound !== 0);
}

/** Folds until none of this account's rows is left unmerged (other test files may fold at the same time). */
async function foldAll(customerId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await foldInboundCounts();
    const left = await db.supportInboundCount.count({ where: { customerId, merged: null } });
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the counts were never folded");
}

/** A thread entry written by SQL, not by the product: the triggers count it all the same. */
async function insertEntry(t: Customer, conversationId: string, direction: string, at: Date): Promise<string> {
  const id = `cmsg_${randomBytes(8).toString("hex")}`;
  await db.$executeRaw`INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "sentBy", "createdAt")
    VALUES (${id}, ${t.customer.id}, ${conversationId}, ${direction}, 'text', ${direction === "inbound" ? "contact" : "api"}, ${at})`;
  return id;
}

// Kathmandu is UTC+05:45: its Monday 2026-11-23 begins at 2026-11-22T18:15:00Z.
const KATHMANDU = { dateFrom: "2026-11-23", dateTo: "2026-11-29", timeZone: "Asia/Kathmandu" };

describe("the heatmap's inbound counts", () => {
  it("count every inbound entry whoever writes it, exactly before and after a fold, cut at the zone's midnight", async () => {
    const t = await messagingCustomer();
    const contact = uniquePhone();
    // 1 ms before the zone's first midnight (Sunday 23:59 there), then its first instant (Monday 00:00).
    await contactWrites(t.sender, contact, "before", { at: new Date("2026-11-22T18:14:59.999Z") });
    await contactWrites(t.sender, contact, "first", { at: new Date("2026-11-22T18:15:00.000Z") });
    // Wednesday 10:14 UTC is 15:59 there, 10:29:59 and 11:00 are 16:14 and 16:45: a bucket is in one hour of the zone.
    for (const at of ["2026-11-25T10:14:00Z", "2026-11-25T10:29:59Z", "2026-11-25T11:00:00Z"])
      await contactWrites(t.sender, contact, "wed", { at: new Date(at) });
    // The other sender's contact on Friday 02:00 UTC (07:45 there).
    await contactWrites(t.otherSender, uniquePhone(), "other", { at: new Date("2026-11-27T02:00:00Z") });
    const all = [
      { weekday: 1, hour: 0, inbound: 1 },
      { weekday: 3, hour: 15, inbound: 1 },
      { weekday: 3, hour: 16, inbound: 2 },
      { weekday: 5, hour: 7, inbound: 1 },
    ];
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(all);
    // A token of one sender: only its conversations.
    const mine = all.slice(0, 3);
    expect(await heatmap(t.scopedToken, KATHMANDU)).toEqual(mine);

    // Folded: one merged row per sender and bucket, the same heatmap.
    await foldAll(t.customer.id);
    const rows = await db.supportInboundCount.findMany({ where: { customerId: t.customer.id } });
    expect(rows.every((r) => r.merged)).toBe(true);
    expect(
      rows.map((r) => `${r.senderId === t.sender.id ? "s" : "o"} ${r.bucket.toISOString()} ${r.inbound}`).sort(),
    ).toEqual([
      "o 2026-11-27T02:00:00.000Z 1",
      "s 2026-11-22T18:00:00.000Z 1",
      "s 2026-11-22T18:15:00.000Z 1",
      "s 2026-11-25T10:00:00.000Z 1",
      "s 2026-11-25T10:15:00.000Z 1",
      "s 2026-11-25T11:00:00.000Z 1",
    ]);
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(all);

    // Entries written by SQL: an inbound one in a merged bucket counts (summed with the merged row
    // until the next fold); outbound and system entries never do.
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, senderId: t.sender.id },
    });
    const added = await insertEntry(t, conversation.id, "inbound", new Date("2026-11-25T10:20:00Z"));
    await insertEntry(t, conversation.id, "outbound", new Date("2026-11-25T10:21:00Z"));
    await insertEntry(t, conversation.id, "system", new Date("2026-11-25T10:22:00Z"));
    const four = all.map((c) => (c.weekday === 3 && c.hour === 16 ? { ...c, inbound: 3 } : c));
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(four);
    await foldAll(t.customer.id);
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(four);
    expect(
      await db.supportInboundCount.count({
        where: { customerId: t.customer.id, bucket: new Date("2026-11-25T10:15:00Z") },
      }),
    ).toBe(1);

    // Moved to Thursday 00:00 UTC (05:45 there), then deleted.
    await db.$executeRaw`UPDATE "ConversationMessage" SET "createdAt" = ${new Date("2026-11-26T00:00:00Z")} WHERE "id" = ${added}`;
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual([
      ...all.slice(0, 3),
      { weekday: 4, hour: 5, inbound: 1 },
      all[3],
    ]);
    await db.$executeRaw`DELETE FROM "ConversationMessage" WHERE "id" = ${added}`;
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(all);
    // An update that names none of the counted columns (a reaction's) moves nothing.
    await db.$executeRaw`UPDATE "ConversationMessage" SET "reactions" = '[]'::jsonb WHERE "conversationId" = ${conversation.id}`;
    await foldAll(t.customer.id);
    expect(await heatmap(t.globalToken, KATHMANDU)).toEqual(all);

    // Another account sees none of it.
    const other = await messagingCustomer();
    expect(await heatmap(other.globalToken, KATHMANDU)).toEqual([]);
  });

  it("a conversation deleted takes its messages out of the counts; an account deleted takes its counts", async () => {
    const t = await messagingCustomer();
    const kept = uniquePhone();
    const gone = uniquePhone();
    await contactWrites(t.sender, kept, "kept", { at: new Date("2026-11-24T09:05:00Z") });
    await contactWrites(t.sender, gone, "gone 1", { at: new Date("2026-11-24T09:10:00Z") });
    await contactWrites(t.sender, gone, "gone 2", { at: new Date("2026-11-24T11:00:00Z") });
    const utc = { dateFrom: "2026-11-24", dateTo: "2026-11-24", timeZone: "UTC" };
    expect(await heatmap(t.globalToken, utc)).toEqual([
      { weekday: 2, hour: 9, inbound: 2 },
      { weekday: 2, hour: 11, inbound: 1 },
    ]);
    await foldAll(t.customer.id);
    // Deleted by SQL (the product never deletes a conversation alone): its entries go with it (cascade).
    await db.$executeRaw`DELETE FROM "Conversation" WHERE "customerId" = ${t.customer.id} AND "contactPhoneNumber" = ${gone}`;
    expect(await db.conversationMessage.count({ where: { customerId: t.customer.id } })).toBe(1);
    expect(await heatmap(t.globalToken, utc)).toEqual([{ weekday: 2, hour: 9, inbound: 1 }]);
    await foldAll(t.customer.id);
    expect(await heatmap(t.globalToken, utc)).toEqual([{ weekday: 2, hour: 9, inbound: 1 }]);

    // The account deleted (by SQL: the product has no such command): no error, and no counts left behind.
    await db.$executeRaw`DELETE FROM "Customer" WHERE "id" = ${t.customer.id}`;
    expect(await db.supportInboundCount.count({ where: { customerId: t.customer.id } })).toBe(0);
  });

  it("the background worker keeps folding, pass after pass, what arrives between its passes", async () => {
    const t = await messagingCustomer();
    await contactWrites(t.sender, uniquePhone(), "start", { at: new Date("2026-11-24T09:00:00Z") });
    const conversation = await db.conversation.findFirstOrThrow({ where: { customerId: t.customer.id } });
    const unmerged = () => db.supportInboundCount.count({ where: { customerId: t.customer.id, merged: null } });
    const folded = async () => {
      for (let i = 0; i < 200 && (await unmerged()) > 0; i++) await sleep(25);
      expect(await unmerged()).toBe(0);
    };
    const worker = startWorker(inboundCountFolding(100));
    try {
      await folded();
      // Three later batches, each after the worker has folded the one before: its fourth pass and on.
      for (const minute of [5, 20, 50]) {
        await insertEntry(
          t,
          conversation.id,
          "inbound",
          new Date(Date.parse("2026-11-24T09:00:00Z") + minute * 60_000),
        );
        await folded();
      }
    } finally {
      await worker.stop();
    }
    const utc = { dateFrom: "2026-11-24", dateTo: "2026-11-24", timeZone: "UTC" };
    expect(await heatmap(t.globalToken, utc)).toEqual([{ weekday: 2, hour: 9, inbound: 4 }]);
    const rows = await db.supportInboundCount.findMany({
      where: { customerId: t.customer.id },
      orderBy: { bucket: "asc" },
    });
    expect(rows.map((r) => [r.bucket.toISOString().slice(11, 16), r.inbound, r.merged])).toEqual([
      ["09:00", 2, true],
      ["09:15", 1, true],
      ["09:45", 1, true],
    ]);
  });

  it("folds racing each other and the inserts count every message once", async () => {
    const t = await messagingCustomer();
    await contactWrites(t.sender, uniquePhone(), "start", { at: new Date("2026-11-24T09:00:00Z") });
    const conversation = await db.conversation.findFirstOrThrow({ where: { customerId: t.customer.id } });
    const base = Date.parse("2026-11-24T09:00:00Z");
    // 8 writers of 25 entries each, one statement per entry, spread over 20 buckets, while 4 folders
    // fold a few rows at a time (another's pass is skipped, not doubled).
    let writing = true;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 25; i++)
        await insertEntry(t, conversation.id, "inbound", new Date(base + ((w * 25 + i) % 20) * 15 * 60_000));
    });
    const folders = Array.from({ length: 4 }, async () => {
      while (writing) await foldInboundCounts(7);
    });
    await Promise.all(writers);
    writing = false;
    await Promise.all(folders);
    const utc = { dateFrom: "2026-11-24", dateTo: "2026-11-24", timeZone: "UTC" };
    const expected = [
      { weekday: 2, hour: 9, inbound: 1 + 40 },
      { weekday: 2, hour: 10, inbound: 40 },
      { weekday: 2, hour: 11, inbound: 40 },
      { weekday: 2, hour: 12, inbound: 40 },
      { weekday: 2, hour: 13, inbound: 40 },
    ];
    expect(await heatmap(t.globalToken, utc)).toEqual(expected);
    await foldAll(t.customer.id);
    expect(await heatmap(t.globalToken, utc)).toEqual(expected);
    const sums = await db.supportInboundCount.groupBy({
      by: ["bucket"],
      where: { customerId: t.customer.id },
      _count: { _all: true },
    });
    expect(sums).toHaveLength(20);
    expect(sums.every((s) => s._count._all === 1)).toBe(true);
  });
});
