// Writes a message row with one raw statement on plain pg (the hot path of every send:
// Prisma's per-statement CPU costs more than the insert itself, see hotRows) and returns
// the row as Prisma would. The same statement files it in its conversation.
import { announceIfCreated, outboundThreadSql, type SentBy, type ThreadOutcome } from "@/lib/conversations/outbound";
import { hotRows } from "@/lib/db";
import type { EventSender } from "@/lib/events/emit";
import { type Message, Prisma } from "@/lib/generated/prisma/client";

export type NewMessage = Omit<
  Message,
  | "createdAt"
  | "updatedAt"
  | "payload"
  | "status"
  | "queued"
  | "attempts"
  | "errorCode"
  | "errorMessage"
  | "providerMessageId"
> & {
  payload: unknown;
  status: string;
  queued: boolean;
  attempts?: number;
  errorCode?: number | null;
  errorMessage?: string | null;
  providerMessageId?: string | null;
};

/** Who sent the message and from which sender: the message joins its conversation (lib/conversations). */
export type ThreadContext = { sender: EventSender; sentBy: SentBy };

export async function insertMessage(m: NewMessage, thread: ThreadContext): Promise<Message> {
  const now = new Date();
  const row: Message = {
    ...m,
    payload: m.payload as Prisma.JsonValue,
    attempts: m.attempts ?? 0,
    errorCode: m.errorCode ?? null,
    errorMessage: m.errorMessage ?? null,
    providerMessageId: m.providerMessageId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  // Timestamps are timestamp(3) holding UTC, written from the ISO text like Prisma does.
  const at = now.toISOString();
  const conversation = outboundThreadSql({
    messageId: row.id,
    customerId: row.customerId,
    senderId: row.senderId,
    recipient: row.recipient,
    payload: m.payload as { type: string },
    sentBy: thread.sentBy,
    at,
  });
  const [outcome] = await hotRows<ThreadOutcome>(Prisma.sql`
    WITH m AS (INSERT INTO "Message" ("id", "customerId", "senderId", "providerMessageId", "recipient", "type", "templateName",
      "templateLanguage", "pricingCategory", "sendRoute", "directSendCategory", "directSendTemplateName", "ttlSeconds",
      "metaTemplateId", "status", "queued", "attempts", "errorCode", "errorMessage", "payload", "createdAt", "updatedAt")
    VALUES (${row.id}, ${row.customerId}, ${row.senderId}, ${row.providerMessageId}, ${row.recipient}, ${row.type},
      ${row.templateName}, ${row.templateLanguage}, ${row.pricingCategory}, ${row.sendRoute}, ${row.directSendCategory},
      ${row.directSendTemplateName}, ${row.ttlSeconds}::int, ${row.metaTemplateId}, ${row.status}, ${row.queued},
      ${row.attempts}::int, ${row.errorCode}::int, ${row.errorMessage}, ${JSON.stringify(m.payload)}::jsonb,
      ${at}::timestamptz AT TIME ZONE 'UTC', ${at}::timestamptz AT TIME ZONE 'UTC') RETURNING "id"),
    ${conversation}
    SELECT conv."id", conv."contactPhoneNumber", conv."contactName", conv."createdAt", conv.created FROM conv`);
  await announceIfCreated(thread.sender, outcome);
  return row;
}
