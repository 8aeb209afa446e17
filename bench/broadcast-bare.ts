// The bare baseline of bench/broadcast.ts (b): the statements and provider calls one batch of
// the broadcast dispatcher makes, in a tight loop on plain pg, with none of the service's
// machinery around them: no per-pass reads (broadcasts, sender, template), no housekeeping
// (scheduled starts, resumes, stale sends), no send-checks pipeline (template, window and
// balance checks: cached in the service; the blacklist statement is kept), no Prisma client,
// no progress counts, no polling. Per batch of up to 100 queued recipients:
//   claim (FOR UPDATE SKIP LOCKED, lease, pair rate) -> the sender's tokens (rate-bucket.ts) ->
//   the blacklist -> "sending" with message ids -> per recipient, concurrently: the message row
//   and its conversation (insertMessage), the simulator's sendMessage, the outcome
//   (completeMessage) -> the recipients' outcomes, the conversation.created and accepted
//   events and the live notices, one statement each.
// The SQL of the claim, the "sending" mark and the outcomes is the dispatcher's
// (lib/domains/broadcasts/dispatcher.ts); the rest calls the same statement-level functions.
// The callback processor runs in this process too, as in the real worker, so the simulator's
// status callbacks cost the same on both sides. The broadcast itself is created and started
// with the service (the recipients made by the same INSERT ... SELECT).
// PORT, DATABASE_URL, BENCH_CUSTOMER.
import { db, getDb, hotRows } from "@/lib/db";
import { recipientMessageId } from "@/lib/domains/broadcasts/dispatcher";
import { filledValues } from "@/lib/domains/broadcasts/service";
import { blacklistedAmong } from "@/lib/domains/contacts/blacklist";
import { announceCreated, type CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { emitAcceptedBatch } from "@/lib/domains/messaging/accepted-event";
import { completeMessage, insertMessage } from "@/lib/domains/messaging/message-store";
import { getProvider } from "@/lib/domains/provider/client";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { takeTokens } from "@/lib/domains/senders/rate-bucket";
import { componentsFor } from "@/lib/domains/templates/fill";
import type { Message } from "@/lib/generated/prisma/client";
import { startCallbackProcessor } from "@/lib/ingest/processor";
import { controlServer, createAndStart, type StartRequest } from "./broadcast-worker";

type Row = { id: string; phoneNumber: string; parameters: { body?: string[] } | null; attempts: number };
const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const LEASE_MS = 4 * 15_000 + 10_000;
const BATCH = 100;

async function sendAll(uid: string, r: StartRequest): Promise<void> {
  const [sender] = await hotRows<Parameters<typeof providerSender>[0]>({
    text: `SELECT * FROM "Sender" WHERE id = $1`,
    values: [r.senderId],
  });
  const [template] = await hotRows<{ name: string; language: string; components: unknown; providerTemplateId: string }>(
    {
      text: `SELECT name, language, components, "providerTemplateId" FROM "Template" WHERE "customerId" = $1 AND name = 'order_update'`,
      values: [r.customerId],
    },
  );
  if (!sender || !template) throw new Error("bare: no sender or template");
  const provider = getProvider();
  const ps = providerSender(sender);
  for (;;) {
    const now = Date.now();
    const rows = await hotRows<Row>({
      text: `UPDATE "BroadcastRecipient" r SET "lockedUntil" = ${UTC(3)}
              WHERE r.id IN (
                SELECT q.id FROM "BroadcastRecipient" q
                 WHERE q."broadcastId" = $1 AND q.status = 'queued' AND q."notBefore" <= ${UTC(4)}
                   AND (q."lockedUntil" IS NULL OR q."lockedUntil" < ${UTC(4)})
                   AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" x
                                    WHERE x."senderId" = q."senderId" AND x."phoneNumber" = q."phoneNumber"
                                      AND x."sendingAt" > ${UTC(5)})
                 ORDER BY q.id LIMIT $2 FOR UPDATE SKIP LOCKED)
              RETURNING r.id, r."phoneNumber", r.parameters, r.attempts`,
      values: [
        uid,
        BATCH,
        new Date(now + LEASE_MS).toISOString(),
        new Date(now).toISOString(),
        new Date(now - 6_000).toISOString(),
      ],
    });
    if (rows.length === 0) break;
    let granted = await takeTokens(sender.id, rows.length, sender.throughputPerSecond ?? 80, { broadcast: true, now });
    if (granted === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1_005 - (Date.now() % 1_000)));
      granted = await takeTokens(sender.id, rows.length, sender.throughputPerSecond ?? 80, { broadcast: true });
    }
    const batch = rows.slice(0, granted);
    if (granted < rows.length) {
      await hotRows({
        text: `UPDATE "BroadcastRecipient" SET "lockedUntil" = NULL WHERE id = ANY($1::bigint[]) AND status = 'queued'`,
        values: [rows.slice(granted).map((x) => x.id)],
      });
    }
    const black = await blacklistedAmong(
      r.customerId,
      sender.id,
      batch.map((x) => x.phoneNumber),
    );
    const send = batch.filter((_, i) => !black[i]);
    const mids = send.map((x) => recipientMessageId(uid, BigInt(x.id), x.attempts + 1));
    await hotRows({
      text: `UPDATE "BroadcastRecipient" AS r SET status = 'sending', "messageId" = m.mid, attempts = r.attempts + 1,
                    "sendingAt" = ${UTC(3)}, "lockedUntil" = ${UTC(4)}, "updatedAt" = ${UTC(3)}
               FROM unnest($1::bigint[], $2::text[]) AS m(id, mid) WHERE r.id = m.id AND r.status = 'queued'`,
      values: [send.map((x) => x.id), mids, new Date().toISOString(), new Date(Date.now() + LEASE_MS).toISOString()],
    });
    const live: LiveEvent[] = [];
    const created: CreatedConversation[] = [];
    const done: { id: string; message: Message }[] = [];
    await Promise.all(
      send.map(async (x, i) => {
        const components = componentsFor(template.components as never, filledValues(x.parameters));
        const payload: ProviderMessagePayload = {
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: x.phoneNumber,
          type: "template",
          template: { name: template.name, language: { code: template.language }, components },
        };
        const row = await insertMessage(
          {
            id: mids[i] ?? "",
            customerId: r.customerId,
            senderId: sender.id,
            recipient: x.phoneNumber,
            type: "template",
            templateName: template.name,
            templateLanguage: template.language,
            pricingCategory: "utility",
            sendRoute: "send",
            directSendCategory: null,
            directSendTemplateName: null,
            ttlSeconds: null,
            metaTemplateId: template.providerTemplateId,
            broadcastId: uid,
            payload,
            status: "sending",
            queued: false,
          },
          { sender: { ...sender, phoneNumberId: sender.phoneNumberId ?? null }, sentBy: { by: "api" }, live, created },
        );
        const outcome = await provider.sendMessage(ps, payload, { pricingCategory: "utility" });
        const message = await completeMessage(
          row,
          outcome.ok
            ? { status: "accepted", queued: false, attempts: 1, providerMessageId: outcome.messageId }
            : { status: "failed", queued: false, attempts: 1, errorCode: outcome.code, errorMessage: outcome.message },
          live,
        );
        done.push({ id: x.id, message });
      }),
    );
    await hotRows({
      text: `UPDATE "BroadcastRecipient" AS r SET status = u.status::"BroadcastRecipientStatus", "errorCode" = u.code,
                    "errorMessage" = u.message, "providerMessageId" = COALESCE(u.pid, r."providerMessageId"), "lockedUntil" = NULL,
                    "failedAt" = CASE WHEN u.status = 'failed' THEN now() AT TIME ZONE 'UTC' ELSE r."failedAt" END,
                    "updatedAt" = now() AT TIME ZONE 'UTC'
               FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::text[]) AS u(id, status, code, message, pid)
              WHERE r.id = u.id AND r.status IN ('queued', 'sending')`,
      values: [
        done.map((d) => d.id),
        done.map((d) => (d.message.status === "accepted" ? "accepted" : "failed")),
        done.map((d) => d.message.errorCode),
        done.map((d) => d.message.errorMessage),
        done.map((d) => d.message.providerMessageId),
      ],
    });
    await announceCreated(created);
    await emitAcceptedBatch(done.map((d) => ({ message: d.message, sender: ps })));
    await publishLive(db, r.customerId, live);
  }
  await hotRows({
    text: `UPDATE "Broadcast" SET status = 'COMPLETED', "completedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now() AT TIME ZONE 'UTC'
            WHERE id = $1 AND status = 'SENDING'
              AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" r WHERE r."broadcastId" = $1 AND r.status IN ('queued', 'sending'))`,
    values: [uid],
  });
}

await getDb();
const processor = startCallbackProcessor();
controlServer(Number(process.env.PORT), async (r: StartRequest) => {
  const started = await createAndStart(r);
  void sendAll(started.uid, r).catch((error) => console.error("bare broadcast failed", error));
  return started;
});
process.on("SIGTERM", () => void processor.stop().then(() => process.exit(0)));
console.log("bench broadcast bare ready");
