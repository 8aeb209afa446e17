// Statuses for message ids this service never sent (docs/event-pipeline.md "Statuses for
// messages we did not send"). A signed status for one of the account's senders
// is applied whoever sent the message: the provider bills the account for sends from other tools
// on the same number, so such a status makes its billing record (a debit when priced) and its
// message.status.* events, marked sendRoute "external" (a filter on billing and reports), and no
// thread entry. The rule of last round (never applied, counted on the callback) changed on
// purpose: the first test here asserted no record, no debit and ignoredStatuses 1000, and now
// asserts the history read back. A status for another sender's message (another tenant's) stays
// ignored, and an early status of a send of ours still becomes that send's.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import type { Sender } from "@/lib/generated/prisma/client";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { createDestination, postProvider, sentMessages, waitFor } from "./events-helpers";
import { call, createTestCustomer } from "./factory";

type Status = { id: string; status: string; recipient_id: string; timestamp?: number };

function statusCallback(sender: Sender, statuses: Status[]): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001234", phone_number_id: sender.phoneNumberId },
              statuses: statuses.map(({ timestamp, ...s }) => ({
                ...s,
                timestamp: String(timestamp ?? Math.floor(Date.now() / 1000)),
                pricing: { billable: true, pricing_model: "PMP", type: "regular", category: "marketing" },
              })),
            },
          },
        ],
      },
    ],
  });
}

const drain = async () => {
  for (let i = 0; i < 50; i++) if ((await processPendingCallbacks(200)).callbacks === 0) return;
};

/** The callbacks as if their grace for a send of ours to record the ids had run out (3 minutes ago). */
const pastGrace = (contains: string) =>
  db.$executeRawUnsafe(
    `UPDATE "ProviderCallback" SET "receivedAt" = "receivedAt" - interval '3 minutes', "retryAt" = NULL
      WHERE strpos(body, $1) > 0`,
    contains,
  );

const billing = async (customerId: string) => ({
  records: await db.billingRecord.count({ where: { customerId } }),
  debits: await db.billingTransaction.count({ where: { customerId, type: "debit" } }),
  events: await db.webhookEvent.count({ where: { customerId } }),
  balance: (await ledgerBalance(customerId)).toString(),
});

type ApiRecord = { messageId: string; status: string; billingClass: string; rate: number };

async function billingRecords(token: string, query: Record<string, string> = {}): Promise<ApiRecord[]> {
  const res = await call("GET", "/api/v3/billing/messages", { token, query: { limit: "200", ...query } });
  expect(res.status).toBe(200);
  return res.body.data.billingRecords;
}

describe("statuses for message ids this service did not send", () => {
  it("a signed history for ids never sent: billed, debited, evented to the sender's destinations, sendRoute external", async () => {
    const t = await createTestCustomer();
    await db.billingTransaction.create({
      data: { customerId: t.customer.id, type: "credit", amount: 10, description: "test credit" },
    });
    const { destination } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: "https://example.com/hook",
      events: ["message.status.sent", "message.status.delivered", "message.status.read"],
    });
    // One message of ours on the same number, for the filter's other side.
    const tag = randomBytes(4).toString("hex");
    const own = `wamid.own.${tag}`;
    await sentMessages(t.sender, tag, new Map([[own, "+15550009999"]]));
    const now = Math.floor(Date.now() / 1000);
    const ids = Array.from({ length: 20 }, (_, i) => `wamid.other-tool.${tag}.${i}`);
    // The history arrives as the provider sends it: each message sent, delivered, then read for some.
    for (const [step, status] of (["sent", "delivered", "read"] as const).entries()) {
      const statuses = ids
        .filter((_, i) => status !== "read" || i % 2 === 0)
        .map((id, i) => ({ id, status, recipient_id: `1555${String(i).padStart(7, "0")}`, timestamp: now + step }));
      if (status === "sent") statuses.push({ id: own, status, recipient_id: "15550009999", timestamp: now });
      expect((await postProvider(statusCallback(t.sender, statuses))).status).toBe(200);
    }
    await drain();

    // Read back at once (no grace to wait for): every record, the external ones marked so.
    const all = await billingRecords(t.globalToken);
    expect(all).toHaveLength(21);
    const byId = new Map(all.map((r) => [r.messageId, r]));
    expect(byId.get(own)).toMatchObject({ status: "sent" });
    for (const [i, id] of ids.entries()) {
      expect(byId.get(id)).toMatchObject({ status: i % 2 === 0 ? "read" : "delivered", billingClass: "payable" });
    }
    const routes = await db.billingRecord.findMany({
      where: { customerId: t.customer.id },
      select: { sendRoute: true },
    });
    expect(routes.filter((r) => r.sendRoute === "external")).toHaveLength(20);
    const external = await billingRecords(t.globalToken, { sendRoute: "external" });
    expect(external.map((r) => r.messageId).sort()).toEqual([...ids].sort());
    expect((await billingRecords(t.globalToken, { sendRoute: "send" })).map((r) => r.messageId)).toEqual([own]);
    const bad = await call("GET", "/api/v3/billing/messages", { token: t.globalToken, query: { sendRoute: "fax" } });
    expect(bad.status).toBe(400);

    // One debit per payable external message (priced), as before the rule of last round.
    const after = await billing(t.customer.id);
    expect(after.debits).toBe(20);
    const charged = external.reduce((sum, r) => sum + r.rate, 0);
    expect(Number(after.balance)).toBeCloseTo(10 - charged, 6);

    // The sender's destination got each status move as an event: 20 sent + 20 delivered + 10 read (+ ours).
    const deliveries = await db.webhookDelivery.findMany({
      where: { destinationId: destination.id },
      include: { event: true },
    });
    const payloads = deliveries.map((d) => JSON.stringify(d.event.payload));
    const externalEvents = payloads.filter((p) => p.includes(`wamid.other-tool.${tag}.`));
    expect(externalEvents).toHaveLength(50);
    expect(deliveries.filter((d) => d.event.type === "message.status.read")).toHaveLength(10);

    // No thread entry for them.
    expect(await db.conversationMessage.count({ where: { customerId: t.customer.id } })).toBe(0);

    // The callbacks keep being looked at for the grace (a send of ours may still record an id);
    // after it each id has a message of its own, which the reports read with the same filter.
    await pastGrace(`wamid.other-tool.${tag}.`);
    await drain();
    const callbacks = await db.providerCallback.findMany({ where: { body: { contains: `wamid.other-tool.${tag}.` } } });
    expect(callbacks.every((c) => c.processedAt !== null && c.ignoredStatuses === 0 && c.error === null)).toBe(true);
    const report = await call("GET", "/api/v3/reports/messages", {
      token: t.globalToken,
      query: { sendRoute: "external", limit: "100" },
    });
    expect(report.status).toBe(200);
    const rows = report.body.data.messages as { messageId: string; sendRoute: string; status: string }[];
    expect(rows.map((r) => r.sendRoute)).toEqual(Array(20).fill("external"));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["read", "delivered"]));
    expect(await db.conversationMessage.count({ where: { customerId: t.customer.id } })).toBe(0);
    // Nothing was applied twice across the retries.
    expect(await billing(t.customer.id)).toEqual(after);
    // A later status for one of them moves its message and record, once.
    const late = ids[1] ?? "";
    await postProvider(statusCallback(t.sender, [{ id: late, status: "read", recipient_id: "15550000001" }]));
    await drain();
    expect(await db.message.findUniqueOrThrow({ where: { providerMessageId: late } })).toMatchObject({
      status: "read",
      sendRoute: "external",
    });
    expect((await billing(t.customer.id)).debits).toBe(20);
  });

  it("another tenant's message id is not this sender's: never applied, never billed to either", async () => {
    const mine = await createTestCustomer();
    const theirs = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const wamid = `wamid.theirs.${tag}`;
    await sentMessages(theirs.sender, tag, new Map([[wamid, "+15550001111"]]));
    const before = { mine: await billing(mine.customer.id), theirs: await billing(theirs.customer.id) };
    await postProvider(statusCallback(mine.sender, [{ id: wamid, status: "delivered", recipient_id: "15550001111" }]));
    await drain();
    const { id } = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: wamid } } });
    const kept = await db.providerCallback.findUniqueOrThrow({ where: { id } });
    expect(kept.processedAt).not.toBeNull();
    expect(kept.ignoredStatuses).toBe(1);
    expect(kept.error).toContain("ignored 1 status(es) for message ids another sender sent");
    expect({ mine: await billing(mine.customer.id), theirs: await billing(theirs.customer.id) }).toEqual(before);
    expect(await billingRecords(mine.globalToken, { sendRoute: "external" })).toEqual([]);
  });

  it("an external message's later status on another account's number stays ignored", async () => {
    const mine = await createTestCustomer();
    const theirs = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const wamid = `wamid.ext.${tag}`;
    await postProvider(statusCallback(mine.sender, [{ id: wamid, status: "sent", recipient_id: "15550003333" }]));
    await drain();
    expect(await db.billingRecord.findUniqueOrThrow({ where: { messageId: wamid } })).toMatchObject({
      customerId: mine.customer.id,
      sendRoute: "external",
    });
    const before = await billing(theirs.customer.id);
    await postProvider(
      statusCallback(theirs.sender, [{ id: wamid, status: "delivered", recipient_id: "15550003333" }]),
    );
    await drain();
    expect(await billing(theirs.customer.id)).toEqual(before);
    expect(await db.billingRecord.findUniqueOrThrow({ where: { messageId: wamid } })).toMatchObject({
      customerId: mine.customer.id,
      status: "sent",
    });
  });

  it("a status that arrives before the send recorded its provider id becomes that send's", async () => {
    const t = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const wamid = `wamid.early.${tag}`;
    await postProvider(statusCallback(t.sender, [{ id: wamid, status: "sent", recipient_id: "15550002222" }]));
    await drain();
    // Applied at once, as sent outside Switchboard so far.
    expect(await db.billingRecord.findUniqueOrThrow({ where: { messageId: wamid } })).toMatchObject({
      sendRoute: "external",
    });
    // The send completes: its row now holds the provider's id.
    await sentMessages(t.sender, tag, new Map([[wamid, "+15550002222"]]));
    const record = await waitFor(
      async () => {
        await processPendingCallbacks(200);
        const r = await db.billingRecord.findUnique({ where: { messageId: wamid } });
        return r?.sendRoute === "send" ? r : null;
      },
      15_000,
      "the early status adopted by its send",
    );
    expect(record).toMatchObject({ status: "sent", customerId: t.customer.id });
    expect(await db.message.findUniqueOrThrow({ where: { providerMessageId: wamid } })).toMatchObject({
      status: "sent",
      sendRoute: "send",
    });
    await pastGrace(wamid);
    await drain();
    const callback = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: wamid } } });
    expect(callback).toMatchObject({ ignoredStatuses: 0, error: null });
    expect(callback.processedAt).not.toBeNull();
    expect(await db.message.count({ where: { providerMessageId: wamid } })).toBe(1);
  });
});
