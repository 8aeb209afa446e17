// Provider statuses and replies on broadcast recipients (docs/broadcasts.md "Recipients"),
// applied in the callback processor's transaction: a recipient's status only moves forward
// (sending < accepted < sent < delivered < read; failed from any of them), and a contact who
// writes back within 72 hours of delivery marks the recipient replied. One statement per batch.
import type { Tx } from "@/lib/db";

/** A status move of a broadcast's message (its uid), from the callback processor (lib/ingest/statuses.ts). */
export type RecipientStatusUpdate = {
  messageUid: string;
  providerMessageId: string;
  status: string;
  errorCode: number | null;
};

const RANK = `CASE %s WHEN 'sending' THEN 0 WHEN 'accepted' THEN 1 WHEN 'sent' THEN 2 WHEN 'delivered' THEN 3
                      WHEN 'read' THEN 4 ELSE 5 END`;
const rank = (expr: string) => RANK.replace("%s", expr);

export async function applyRecipientStatuses(tx: Tx, updates: RecipientStatusUpdate[]): Promise<void> {
  const known = updates.filter((u) => ["sent", "delivered", "read", "failed"].includes(u.status));
  if (known.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" r
        SET status = u.status::"BroadcastRecipientStatus", "providerMessageId" = u.pid,
            "errorCode" = CASE WHEN u.status = 'failed' THEN u.code ELSE r."errorCode" END,
            "failedAt" = CASE WHEN u.status = 'failed' THEN now() AT TIME ZONE 'UTC' ELSE r."failedAt" END,
            "deliveredAt" = CASE WHEN u.status IN ('delivered', 'read') THEN COALESCE(r."deliveredAt", now() AT TIME ZONE 'UTC')
                                 ELSE r."deliveredAt" END,
            "lockedUntil" = NULL, "updatedAt" = now() AT TIME ZONE 'UTC'
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS u(uid, status, code, pid)
      WHERE r."messageId" = u.uid AND r.status IN ('sending', 'accepted', 'sent', 'delivered', 'read')
        AND ${rank("u.status")} > ${rank("r.status::text")}`,
    known.map((u) => u.messageUid),
    known.map((u) => u.status),
    known.map((u) => u.errorCode),
    known.map((u) => u.providerMessageId),
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
