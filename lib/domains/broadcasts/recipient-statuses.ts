// Broadcast recipients follow their messages (docs/broadcasts.md "Recipients"), and replies mark
// them: a recipient's status is its message's own (lib/domains/messages/status.ts, moved by the
// callback processor), only ever forward, whatever the order, the repeats or the batching of the
// provider's statuses, and whether the dispatcher wrote its outcome before or after them. A contact
// who writes back within 72 hours of delivery marks the recipient replied. One statement each.
import type { Tx } from "@/lib/db";
import { advancesSql } from "@/lib/domains/messages/status";

/**
 * Locks, in id order and in one statement, every broadcast recipient a callback batch may write:
 * those of the messages its statuses are about (by provider id) and those of the contacts who
 * wrote (markReplied). The batch's later statements (recipientsFollowMessages, markReplied) then
 * take no recipient lock of their own, so two batches (or a batch and the dispatcher's outcome
 * write, which locks in id order too) never each hold a row the other waits for (40P01).
 */
export async function lockBatchRecipients(
  tx: Tx,
  providerMessageIds: readonly string[],
  replies: readonly { senderId: string; phoneNumber: string }[],
): Promise<void> {
  if (providerMessageIds.length === 0 && replies.length === 0) return;
  await tx.$queryRawUnsafe(
    `WITH locked AS (
       SELECT r.id FROM "BroadcastRecipient" r
        WHERE r."messageId" IN (SELECT m."id" FROM "Message" m
                                 WHERE m."providerMessageId" = ANY($1::text[]) AND m."broadcastId" IS NOT NULL)
           OR (r."senderId", r."phoneNumber") IN (SELECT * FROM unnest($2::text[], $3::text[]))
        ORDER BY r.id FOR UPDATE)
     SELECT count(*)::int AS n FROM locked`,
    [...new Set(providerMessageIds)],
    replies.map((r) => r.senderId),
    replies.map((r) => r.phoneNumber),
  );
}

/**
 * Moves each recipient of these messages (their uids) forward to its message's status: from
 * sending, interrupted (the stale-send rule got there before the outcome) or an earlier provider
 * status; a message the provider never took (no provider id) moves nothing. The rows are locked in
 * id order first, as every batch locks them, so two writers never wait on each other in a cycle.
 * Called by the callback processor (lib/ingest/statuses.ts) and after the dispatcher's outcomes.
 */
export async function recipientsFollowMessages(tx: Tx, messageUids: readonly string[]): Promise<number> {
  if (messageUids.length === 0) return 0;
  return tx.$executeRawUnsafe(
    `WITH locked AS (
       SELECT r.id FROM "BroadcastRecipient" r
        WHERE r."messageId" = ANY($1::text[]) AND r.status IN ('sending', 'interrupted', 'accepted', 'sent', 'delivered', 'read')
        ORDER BY r.id FOR UPDATE)
     UPDATE "BroadcastRecipient" r
        SET status = m.status::"BroadcastRecipientStatus", "providerMessageId" = m."providerMessageId",
            "errorCode" = CASE WHEN m.status = 'failed' THEN COALESCE(m."errorCode", r."errorCode") ELSE r."errorCode" END,
            "errorMessage" = CASE WHEN m.status = 'failed' THEN COALESCE(m."errorMessage", r."errorMessage") ELSE r."errorMessage" END,
            "failedAt" = CASE WHEN m.status = 'failed' THEN COALESCE(r."failedAt", now() AT TIME ZONE 'UTC') ELSE r."failedAt" END,
            "deliveredAt" = CASE WHEN m.status IN ('delivered', 'read') THEN COALESCE(r."deliveredAt", now() AT TIME ZONE 'UTC')
                                 ELSE r."deliveredAt" END,
            "lockedUntil" = NULL, "updatedAt" = now() AT TIME ZONE 'UTC'
       FROM locked l, "Message" m
      WHERE r.id = l.id AND m."id" = r."messageId" AND m."providerMessageId" IS NOT NULL
        AND m.status IN ('accepted', 'sent', 'delivered', 'read', 'failed')
        AND ${advancesSql(`r.status::text`, "m.status")}`,
    [...new Set(messageUids)].sort(),
  );
}

/** A contact wrote to the sender: their broadcast messages delivered in the last 72 hours are replied. */
export async function markReplied(tx: Tx, senderId: string, contactPhoneNumbers: string[]): Promise<void> {
  if (contactPhoneNumbers.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" SET replied = true
      WHERE "senderId" = $1 AND "phoneNumber" = ANY($2::text[]) AND NOT replied
        AND "deliveredAt" > (now() AT TIME ZONE 'UTC') - interval '72 hours'`,
    senderId,
    contactPhoneNumbers,
  );
}
