// Recipients a crash or an outage left behind (docs/broadcasts.md "Crashes"), settled from
// what was actually sent: the Message row of the recipient's attempt is written (committed)
// before its provider call, so
//   - no message row: the call was never made; the recipient goes back to the queue (sent
//     once, later), or is skipped (cancelled) when its broadcast was cancelled meanwhile;
//   - a message the provider answered (accepted, sent, delivered, read; failed): the
//     recipient takes its status ("queued" for the sender's reconnect: accepted, as the
//     dispatcher's outcomes); a throughput or pair-rate refusal reached nobody: queued again;
//   - a message still "sending" or "unknown" (the call's outcome is not known): interrupted,
//     never resent automatically, as every ambiguous send in this service.
// It applies to rows left "sending" past their lease (their worker died) and to rows already
// "interrupted" (an outcome written later, e.g. by the send reconciliation once the database
// is back, is taken on a later pass). Only broadcasts that can hold such rows: SENDING or
// PAUSED, and those completed or cancelled in the last day: a cancelled one's unsent
// recipients become skipped; a completed one with recipients queued again is SENDING again.
import { db } from "@/lib/db";
import { PAIR_RATE_LIMIT, THROUGHPUT_EXCEEDED } from "@/lib/domains/provider/error-codes";

/** Settles the left-over recipients of one pass; how many it changed. */
export async function settleStaleSends(customerIds: string[] | null, now: Date): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    `WITH b AS (
       SELECT id, status FROM "Broadcast"
        WHERE (status IN ('SENDING', 'PAUSED')
               OR (status IN ('CANCELLED', 'COMPLETED') AND "completedAt" > ($1::timestamptz AT TIME ZONE 'UTC') - interval '1 day'))
          AND ($2::text[] IS NULL OR "customerId" = ANY($2::text[]))
     ), left_over AS (
       SELECT r.id, b.status AS bstatus, m.id AS mid, m.status AS mstatus, m."errorCode" AS mcode,
              m."errorMessage" AS merror, m."providerMessageId" AS pid
         FROM b JOIN "BroadcastRecipient" r ON r."broadcastId" = b.id
         LEFT JOIN "Message" m ON m.id = r."messageId"
        WHERE (r.status = 'sending' AND r."lockedUntil" < ($1::timestamptz AT TIME ZONE 'UTC'))
           OR (r.status = 'interrupted' AND (m.id IS NULL OR m.status NOT IN ('sending', 'unknown')))
        FOR UPDATE OF r
     ), verdict AS (
       SELECT l.*, CASE
                WHEN l.mid IS NULL OR (l.mstatus = 'failed' AND l.mcode IN (${THROUGHPUT_EXCEEDED}, ${PAIR_RATE_LIMIT})) THEN
                  CASE WHEN l.bstatus = 'CANCELLED' THEN 'skipped' ELSE 'queued' END
                WHEN l.mstatus IN ('accepted', 'queued') THEN 'accepted'
                WHEN l.mstatus IN ('sent', 'delivered', 'read', 'failed') THEN l.mstatus
                ELSE 'interrupted' END AS next
         FROM left_over l
     ), settled AS (
     UPDATE "BroadcastRecipient" r
        SET status = v.next::"BroadcastRecipientStatus",
            "skipReason" = CASE WHEN v.next = 'skipped' THEN 'cancelled' ELSE r."skipReason" END,
            "messageId" = CASE WHEN v.next IN ('queued', 'skipped') THEN NULL ELSE r."messageId" END,
            "sendingAt" = CASE WHEN v.next IN ('queued', 'skipped') THEN NULL ELSE r."sendingAt" END,
            "providerMessageId" = COALESCE(v.pid, r."providerMessageId"),
            "errorCode" = CASE WHEN v.next = 'failed' THEN v.mcode ELSE r."errorCode" END,
            "errorMessage" = CASE WHEN v.next = 'failed' THEN v.merror
                                  WHEN v.next = 'interrupted' THEN r."errorMessage" ELSE NULL END,
            "failedAt" = CASE WHEN v.next = 'failed' THEN ($1::timestamptz AT TIME ZONE 'UTC') ELSE r."failedAt" END,
            "deliveredAt" = CASE WHEN v.next IN ('delivered', 'read') THEN COALESCE(r."deliveredAt", ($1::timestamptz AT TIME ZONE 'UTC'))
                                 ELSE r."deliveredAt" END,
            "lockedUntil" = NULL, "updatedAt" = ($1::timestamptz AT TIME ZONE 'UTC')
       FROM verdict v
      WHERE r.id = v.id AND NOT (r.status = 'interrupted' AND v.next = 'interrupted')
      RETURNING r."broadcastId", v.next, v.bstatus
     ), reopened AS (
       UPDATE "Broadcast" SET status = 'SENDING', "completedAt" = NULL, "updatedAt" = ($1::timestamptz AT TIME ZONE 'UTC')
        WHERE status = 'COMPLETED' AND id IN (SELECT "broadcastId" FROM settled WHERE next = 'queued' AND bstatus = 'COMPLETED')
       RETURNING id
     )
     SELECT (SELECT count(*) FROM settled)::int AS n`,
    now.toISOString(),
    customerIds,
  );
  return row?.n ?? 0;
}
