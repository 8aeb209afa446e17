// Callback batches cannot deadlock (40P01) on broadcast recipients (docs/event-pipeline.md
// "Concurrency"): under a 20,000-recipient broadcast two processors deadlocked when one batch
// moved recipient A (a status) and then marked recipient B replied (an inbound reply) while
// the other moved B and then marked A. Each batch now locks every recipient it may write first,
// in id order. Here two batches over the same two recipients in opposite orders are held at
// the same point (their conversations, locked by the test) and let go together.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Sender } from "@/lib/generated/prisma/client";
import { runOne } from "@/lib/ingest/process-batch";
import { postProvider } from "./events-helpers";
import { call, uniquePhone } from "./factory";
import { messagingCustomer } from "./messaging-fixtures";

/** One callback: a read status for `wamid` and a reply from `from`. */
function statusAndReply(sender: Sender, wamid: string, statusTo: string, from: string): string {
  const now = Math.floor(Date.now() / 1000);
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
              statuses: [{ id: wamid, status: "read", timestamp: String(now), recipient_id: statusTo.slice(1) }],
              contacts: [{ profile: { name: "Ana" }, wa_id: from.slice(1) }],
              messages: [
                {
                  from: from.slice(1),
                  id: `wamid.reply.${randomBytes(6).toString("hex")}`,
                  timestamp: String(now),
                  type: "text",
                  text: { body: "thanks" },
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

it.runIf(process.env.TEST_DB === "postgres")(
  "two batches over the same recipients in opposite orders both commit (no 40P01)",
  async () => {
    const t = await messagingCustomer({ credit: 100 });
    const phones = [uniquePhone(), uniquePhone()] as const;
    const created = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: {
        broadcast: {
          name: "Deadlock",
          template: { name: "order_update", language: "en" },
          audience: { phoneNumbers: [...phones] },
          variables: { body: [{ source: "constant", value: "Ana" }] },
        },
      },
    });
    const broadcastId = created.body.data.broadcastUid as string;
    const tag = randomBytes(4).toString("hex");
    const wamids = phones.map((_, i) => `wamid.dl.${tag}.${i}`);
    const now = new Date();
    for (const [i, phone] of phones.entries()) {
      const messageId = `msg_dl_${tag}_${i}`;
      await db.message.create({
        data: {
          id: messageId,
          customerId: t.customer.id,
          senderId: t.sender.id,
          providerMessageId: wamids[i],
          recipient: phone,
          type: "template",
          sendRoute: "send",
          payload: {},
          broadcastId,
          status: "delivered",
        },
      });
      await db.broadcastRecipient.create({
        data: {
          broadcastId,
          customerId: t.customer.id,
          senderId: t.sender.id,
          phoneNumber: phone,
          status: "delivered",
          messageId,
          providerMessageId: wamids[i],
          deliveredAt: now,
        },
      });
      await db.conversation.create({
        data: {
          id: `conv_dl_${tag}_${i}`,
          customerId: t.customer.id,
          senderId: t.sender.id,
          contactPhoneNumber: phone,
          lastMessageAt: now,
        },
      });
    }
    // Batch A: recipient 0's status, recipient 1's reply; batch B the other way round.
    await postProvider(statusAndReply(t.sender, wamids[0] ?? "", phones[0], phones[1]));
    await postProvider(statusAndReply(t.sender, wamids[1] ?? "", phones[1], phones[0]));
    const ids = await Promise.all(
      wamids.map(async (w) => (await db.providerCallback.findFirstOrThrow({ where: { body: { contains: w } } })).id),
    );

    const waitingOnLocks = async () =>
      (
        await db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        )
      )[0]?.n ?? 0;
    let running: Promise<PromiseSettledResult<unknown>[]> = Promise.resolve([]);
    // The test holds both conversations: each batch runs up to its replies and waits there; the
    // commit lets both go at once.
    await db.$transaction(
      async (hold) => {
        await hold.$queryRawUnsafe(
          `SELECT id FROM "Conversation" WHERE "senderId" = $1 AND "contactPhoneNumber" = ANY($2::text[]) FOR UPDATE`,
          t.sender.id,
          [...phones],
        );
        running = Promise.allSettled(ids.map((id) => runOne(1, id)));
        const until = Date.now() + 10_000;
        while ((await waitingOnLocks()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        expect(await waitingOnLocks()).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000 },
    );
    const results = await running;
    const errors = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
    expect(errors).toEqual([]);
    const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId } });
    expect(recipients.map((r) => [r.status, r.replied])).toEqual([
      ["read", true],
      ["read", true],
    ]);
  },
  30_000,
);
