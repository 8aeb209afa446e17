// A broadcast's recipients between the queue and the provider call (docs/broadcasts.md "How
// it sends", "Crashes"). Several workers and instances claim side by side:
//   - a batch is claimed with FOR UPDATE SKIP LOCKED and a lease (lockedUntil): no two
//     workers hold one recipient; a worker that dies before the provider call lets it go;
//   - a recipient is marked "sending" (with its message id) BEFORE the provider call, so a
//     worker that dies during the call leaves it "sending" and the next pass after the lease
//     settles it from its message (stale-sends.ts): none (never called) queued again, an
//     answered one its status, an unknown outcome "interrupted": never sent again automatically.
// The outcomes written after the calls are outcomes.ts's. Every statement here runs on plain
// pg (hotRows), not the ORM: a few per batch, where Prisma's per-statement CPU was more than
// the statement's own (lib/db/pool.ts hotRows, docs/benchmarks.md "Broadcasts").
import { hotRows, hotTransaction } from "@/lib/db";
import type { Broadcast } from "@/lib/generated/prisma/client";

/** A statement of this module on plain pg: its rows (int8 as text). */
const plain = <T>(text: string, ...values: unknown[]) => hotRows<T>({ text, values });

/** One broadcast message per contact per this many milliseconds, across the sender's broadcasts. */
export const PAIR_INTERVAL_MS = 6_000;

export type Claimed = {
  id: bigint;
  phoneNumber: string;
  parameters: { body?: string[]; header?: string[] } | null;
  attempts: number;
};

/**
 * A claim's clock and lease (the dispatcher's options): by default long enough for a send's
 * every provider attempt, as the other send workers (providerSendLeaseMs, docs/configuration.md).
 */
type Lease = { now: () => Date; leaseMs: number };

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Claims up to n due recipients of the broadcast under a lease. The pair rate spans the
 * sender's broadcasts (docs/broadcasts.md "Pair rate"): a contact sent to in the last 6
 * seconds, or claimed right now by another of the sender's broadcasts (claimed rows may wait
 * up to a second for their tokens before they are marked sending), is left for later. Claims
 * of one sender take turns (a transaction-scoped advisory lock), so two workers claiming for
 * two broadcasts at once cannot both take one contact.
 */
export async function claim(b: Pick<Broadcast, "id" | "senderId">, n: number, o: Lease): Promise<Claimed[]> {
  const now = o.now();
  const rows = await hotTransaction(async (statement) => {
    await statement(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`broadcast-claim:${b.senderId}`]);
    const claimed = await statement(
      `UPDATE "BroadcastRecipient" r SET "lockedUntil" = ${UTC(3)}
        WHERE r.id IN (
          SELECT q.id FROM "BroadcastRecipient" q
           WHERE q."broadcastId" = $1 AND q.status = 'queued' AND q."notBefore" <= ${UTC(4)}
             AND (q."lockedUntil" IS NULL OR q."lockedUntil" < ${UTC(4)})
             AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" x
                              WHERE x."senderId" = q."senderId" AND x."phoneNumber" = q."phoneNumber"
                                AND (x."sendingAt" > ${UTC(5)}
                                     OR (x."broadcastId" <> q."broadcastId" AND x.status = 'queued'
                                         AND x."lockedUntil" > ${UTC(4)})))
           ORDER BY q.id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING r.id, r."phoneNumber", r.parameters, r.attempts`,
      [b.id, n, later(now, o.leaseMs), now.toISOString(), new Date(now.getTime() - PAIR_INTERVAL_MS).toISOString()],
    );
    return claimed.rows as (Omit<Claimed, "id"> & { id: string })[];
  });
  return rows.map((r) => ({ ...r, id: BigInt(r.id) }));
}

/** Gives claimed rows back (queued, due at notBefore) without counting an attempt. */
export async function release(ids: bigint[], notBefore: Date | null = null): Promise<void> {
  if (ids.length === 0) return;
  await plain(
    `UPDATE "BroadcastRecipient" SET "lockedUntil" = NULL,
            "notBefore" = COALESCE(${UTC(2)}, "notBefore"), "updatedAt" = now() AT TIME ZONE 'UTC'
      WHERE id = ANY($1::bigint[]) AND status = 'queued'`,
    ids,
    notBefore?.toISOString() ?? null,
  );
}

/** Claimed rows that will not be sent (blacklisted): skipped with the reason, no attempt counted. */
export async function setSkipped(ids: bigint[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await plain(
    `UPDATE "BroadcastRecipient" SET status = 'skipped', "skipReason" = $2, "lockedUntil" = NULL,
            "updatedAt" = now() AT TIME ZONE 'UTC' WHERE id = ANY($1::bigint[]) AND status = 'queued'`,
    ids,
    reason,
  );
}

/**
 * Marks claimed rows "sending" with their message ids, if the broadcast is SENDING: its row is
 * read under a share lock, the lock a pause or a cancel takes for update. Returns the rows marked.
 */
export async function markSending(
  broadcastId: string,
  rows: { id: bigint; messageId: string }[],
  o: Lease,
): Promise<Set<bigint>> {
  const marked = await plain<{ id: string }>(
    `WITH b AS (SELECT id FROM "Broadcast" WHERE id = $5 AND status = 'SENDING' FOR SHARE)
     UPDATE "BroadcastRecipient" AS r SET status = 'sending', "messageId" = m.mid, attempts = r.attempts + 1,
            "sendingAt" = ${UTC(3)}, "lockedUntil" = ${UTC(4)}, "updatedAt" = ${UTC(3)}
       FROM unnest($1::bigint[], $2::text[]) AS m(id, mid), b
      WHERE r.id = m.id AND r."broadcastId" = b.id AND r.status = 'queued'
     RETURNING r.id`,
    rows.map((r) => r.id),
    rows.map((r) => r.messageId),
    o.now().toISOString(),
    later(o.now(), o.leaseMs),
    broadcastId,
  );
  return new Set(marked.map((m) => BigInt(m.id)));
}

/** Whether the broadcast is still SENDING, read under the share lock markSending takes. */
export async function stillSending(broadcastId: string): Promise<boolean> {
  const rows = await plain<{ id: string }>(
    `SELECT id FROM "Broadcast" WHERE id = $1 AND status = 'SENDING' FOR SHARE`,
    broadcastId,
  );
  return rows.length > 0;
}

/**
 * Rows marked sending whose calls were withdrawn (nothing recorded, nothing sent): back to the
 * queue, the attempt not counted, or skipped as cancelled when the broadcast was cancelled.
 */
export async function unmark(ids: bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await plain(
    `UPDATE "BroadcastRecipient" AS r
        SET status = (CASE WHEN b.status = 'CANCELLED' THEN 'skipped' ELSE 'queued' END)::"BroadcastRecipientStatus",
            "skipReason" = CASE WHEN b.status = 'CANCELLED' THEN 'cancelled' END,
            "messageId" = NULL, attempts = r.attempts - 1, "sendingAt" = NULL, "lockedUntil" = NULL,
            "updatedAt" = now() AT TIME ZONE 'UTC'
       FROM "Broadcast" b WHERE b.id = r."broadcastId" AND r.id = ANY($1::bigint[]) AND r.status = 'sending'`,
    ids,
  );
}
