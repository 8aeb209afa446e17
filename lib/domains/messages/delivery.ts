// The provider's statuses on the Message row (docs/event-pipeline.md "Statuses -> billing records
// and ledger"): the callback processor finds the messages a batch's statuses are about, then
// moves each forward to the status its billing record reached, never back (advances, status.ts),
// in the processor's transaction. The rows are locked in providerMessageId order, as the billing
// records are, so two processors never wait on each other in a cycle (docs/event-pipeline.md
// "Concurrency").
import type { Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { advancesSql, PROVIDER_STATUSES } from "./status";

/** A message as the callback processor sees it. */
export type DeliveryMessage = {
  id: string;
  providerMessageId: string;
  senderId: string;
  broadcastId: string | null;
  sendRoute: string;
  customerId: string;
  /** The file it sent by mediaId (a media message's, a template header's), and a media message's caption. */
  mediaId: string | null;
  mediaCaption: string | null;
};

/** The messages that hold these provider ids (any sender's: the caller checks whose). */
export async function messagesByProviderIds(tx: Tx, providerMessageIds: readonly string[]): Promise<DeliveryMessage[]> {
  if (providerMessageIds.length === 0) return [];
  return tx.$queryRawUnsafe<DeliveryMessage[]>(
    `SELECT "id", "providerMessageId", "senderId", "broadcastId", "sendRoute", "customerId", "mediaId",
       CASE WHEN "mediaId" IS NOT NULL THEN "payload"->"type"->>'caption' END AS "mediaCaption" FROM "Message"
      WHERE "providerMessageId" = ANY($1::text[])`,
    [...new Set(providerMessageIds)],
  );
}

/** Where a batch left a message: its record's status and, when it failed, the provider's error. */
export type DeliveryStatus = {
  providerMessageId: string;
  status: string;
  errorCode: number | null;
  errorTitle: string | null;
};

/**
 * Moves each message forward to its status (a late delivered never replaces read; failed only
 * before delivery); a failure keeps the provider's error on the row. One statement for the batch.
 */
export async function applyDeliveryStatuses(tx: Tx, statuses: readonly DeliveryStatus[]): Promise<number> {
  if (statuses.length === 0) return 0;
  const sorted = [...statuses].sort((a, b) => (a.providerMessageId < b.providerMessageId ? -1 : 1));
  return tx.$executeRawUnsafe(
    `WITH u AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS u(pid, status, code, title)),
     locked AS (SELECT m."id", u.* FROM u JOIN "Message" m ON m."providerMessageId" = u.pid
                 ORDER BY u.pid FOR UPDATE OF m)
     UPDATE "Message" m SET "status" = l.status,
       "errorCode" = CASE WHEN l.status = 'failed' THEN COALESCE(l.code, m."errorCode") ELSE m."errorCode" END,
       "errorMessage" = CASE WHEN l.status = 'failed' THEN COALESCE(l.title, m."errorMessage") ELSE m."errorMessage" END,
       "updatedAt" = now() AT TIME ZONE 'UTC'
     FROM locked l WHERE m."id" = l."id" AND ${advancesSql(`m."status"`, "l.status")}`,
    sorted.map((s) => s.providerMessageId),
    sorted.map((s) => s.status),
    sorted.map((s) => s.errorCode),
    sorted.map((s) => s.errorTitle),
  );
}

/**
 * Messages sent outside this service from one of the account's numbers (docs/event-pipeline.md
 * "Statuses for messages we did not send"): once no send of ours can still record these provider
 * ids, each that a billing record kept as "external" and no message holds gets a message row of
 * its own (sendRoute "external", its record's status; no thread entry), which the reports read
 * and later statuses move.
 */
export async function recordExternalMessages(tx: Tx, providerMessageIds: readonly string[]): Promise<number> {
  if (providerMessageIds.length === 0) return 0;
  return tx.$executeRawUnsafe(
    `INSERT INTO "Message" ("id", "customerId", "senderId", "providerMessageId", "recipient", "type", "sendRoute",
        "status", "errorCode", "errorMessage", "payload", "createdAt", "updatedAt")
     SELECT 'msg_ext_' || md5(b."messageId"), b."customerId", b."senderId", b."messageId",
        CASE WHEN b."recipientId" LIKE '+%' THEN b."recipientId" ELSE '+' || b."recipientId" END, 'unknown', 'external',
        CASE WHEN b."status" IN (${PROVIDER_STATUSES.map((s) => `'${s}'`).join(", ")}) THEN b."status" ELSE 'accepted' END,
        b."errorCode", b."errorTitle", '{}'::jsonb, b."createdAt", ${NOW_UTC}
       FROM "BillingRecord" b
      WHERE b."messageId" = ANY($1::text[]) AND b."sendRoute" = 'external'
        AND NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."providerMessageId" = b."messageId")
      ORDER BY b."messageId"
     ON CONFLICT DO NOTHING`,
    [...new Set(providerMessageIds)].sort(),
  );
}
