// Statuses for message ids this service never sent (docs/event-pipeline.md "Statuses for
// messages we did not send"): signed status callbacks for made-up ids billed 1,005 debits to
// an account that sent nothing. Now they are never applied (no record, no debit, no event),
// kept for the record on their callback (ignoredStatuses, a note), after a grace in which an
// early status for a send of ours that has not recorded its provider id yet still finds it.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import type { Sender } from "@/lib/generated/prisma/client";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { postProvider, sentMessages, waitFor } from "./events-helpers";
import { createTestCustomer } from "./factory";

type Status = { id: string; status: string; recipient_id: string };

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
              statuses: statuses.map((s) => ({
                ...s,
                timestamp: String(Math.floor(Date.now() / 1000)),
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

/** The callback as if its grace for unknown ids had run out (it arrived 3 minutes ago). */
const pastGrace = (id: string) =>
  db.$executeRawUnsafe(
    `UPDATE "ProviderCallback" SET "receivedAt" = "receivedAt" - interval '3 minutes', "retryAt" = NULL WHERE id = $1`,
    id,
  );

const billing = async (customerId: string) => ({
  records: await db.billingRecord.count({ where: { customerId } }),
  debits: await db.billingTransaction.count({ where: { customerId, type: "debit" } }),
  events: await db.webhookEvent.count({ where: { customerId } }),
  balance: (await ledgerBalance(customerId)).toString(),
});

describe("statuses for message ids this service did not send", () => {
  it("1,000 made-up ids on an account that sent nothing: no record, no debit, balance unchanged; counted on the callback", async () => {
    const t = await createTestCustomer();
    await db.billingTransaction.create({
      data: { customerId: t.customer.id, type: "credit", amount: 10, description: "test credit" },
    });
    const before = await billing(t.customer.id);
    const tag = randomBytes(4).toString("hex");
    const made = Array.from({ length: 1000 }, (_, i) => ({
      id: `wamid.made.${tag}.${i}`,
      status: "delivered",
      recipient_id: `1555${String(i).padStart(7, "0")}`,
    }));
    expect((await postProvider(statusCallback(t.sender, made))).status).toBe(200);
    const { id } = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: `wamid.made.${tag}.` } } });
    await drain();
    // Within its grace the callback waits for a send of ours to record those ids.
    expect(await db.providerCallback.findUniqueOrThrow({ where: { id } })).toMatchObject({ processedAt: null });
    expect(await billing(t.customer.id)).toEqual(before);

    await pastGrace(id);
    await drain();
    const kept = await db.providerCallback.findUniqueOrThrow({ where: { id } });
    expect(kept.processedAt).not.toBeNull();
    expect(kept.ignoredStatuses).toBe(1000);
    expect(kept.error).toContain("ignored 1000 status(es) for message ids this service did not send");
    expect(kept.body).toContain(`wamid.made.${tag}.999`); // the record: the raw callback stays
    expect(await billing(t.customer.id)).toEqual(before);
  });

  it("another tenant's message id is unknown to this sender: never applied, never billed to either", async () => {
    const mine = await createTestCustomer();
    const theirs = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const wamid = `wamid.theirs.${tag}`;
    await sentMessages(theirs.sender, tag, new Map([[wamid, "+15550001111"]]));
    const before = { mine: await billing(mine.customer.id), theirs: await billing(theirs.customer.id) };
    await postProvider(statusCallback(mine.sender, [{ id: wamid, status: "delivered", recipient_id: "15550001111" }]));
    const { id } = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: wamid } } });
    await pastGrace(id);
    await drain();
    expect((await db.providerCallback.findUniqueOrThrow({ where: { id } })).ignoredStatuses).toBe(1);
    expect({ mine: await billing(mine.customer.id), theirs: await billing(theirs.customer.id) }).toEqual(before);
  });

  it("a status that arrives before the send recorded its provider id is applied once it has", async () => {
    const t = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const wamid = `wamid.early.${tag}`;
    await postProvider(statusCallback(t.sender, [{ id: wamid, status: "sent", recipient_id: "15550002222" }]));
    await drain();
    expect(await db.billingRecord.count({ where: { messageId: wamid } })).toBe(0);
    // The send completes: its row now holds the provider's id.
    await sentMessages(t.sender, tag, new Map([[wamid, "+15550002222"]]));
    const record = await waitFor(
      async () => {
        await processPendingCallbacks(200);
        return db.billingRecord.findUnique({ where: { messageId: wamid } });
      },
      15_000,
      "the early status applied",
    );
    expect(record).toMatchObject({ status: "sent", customerId: t.customer.id });
    const callback = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: wamid } } });
    expect(callback).toMatchObject({ ignoredStatuses: 0, error: null });
    expect(callback.processedAt).not.toBeNull();
  });
});
