// A cancelled broadcast's queued recipients become skipped (cancelled) in bounded chunks
// (docs/broadcasts.md "States"): the cancel itself only changes the broadcast's state, in a
// short transaction, so nothing more is claimed at once; then the cancel request skips chunks
// for a moment, and the dispatcher's housekeeping finishes what is left (after a crash too).
// Never one statement over every queued row inside the request's transaction.
import { db } from "@/lib/db";

/** Chunk size and the request's time budget (tests make them small to prove the chunking). */
export const cancelSweep = { chunk: 5_000, requestBudgetMs: 250 };

/** Skips up to one chunk of the cancelled broadcast's queued recipients; how many it skipped. */
async function skipChunk(broadcastId: string, chunk: number): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" SET status = 'skipped', "skipReason" = 'cancelled', "lockedUntil" = NULL,
            "updatedAt" = now() AT TIME ZONE 'UTC'
      WHERE id IN (SELECT id FROM "BroadcastRecipient" WHERE "broadcastId" = $1 AND status = 'queued' ORDER BY id LIMIT $2)
        AND status = 'queued' AND EXISTS (SELECT 1 FROM "Broadcast" WHERE id = $1 AND status = 'CANCELLED')`,
    broadcastId,
    chunk,
  );
}

/**
 * Skips chunks of a cancelled broadcast's queued recipients until none is left (true) or the
 * budget is spent (false: the dispatcher's housekeeping goes on). At least one chunk.
 */
export async function skipCancelled(broadcastId: string, budgetMs: number): Promise<boolean> {
  const until = Date.now() + budgetMs;
  for (;;) {
    const n = await skipChunk(broadcastId, cancelSweep.chunk);
    if (n < cancelSweep.chunk) return true;
    if (Date.now() >= until) return false;
  }
}

/**
 * The housekeeping part: cancelled broadcasts (of the last week) that still have queued
 * recipients, each swept for up to budgetMs. Resumes a sweep a crash or a budget left.
 */
export async function sweepCancelled(customerIds: string[] | null, now: Date, budgetMs = 500): Promise<void> {
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT b.id FROM "Broadcast" b
      WHERE b.status = 'CANCELLED' AND b."completedAt" > ($1::timestamptz AT TIME ZONE 'UTC') - interval '7 days'
        AND ($2::text[] IS NULL OR b."customerId" = ANY($2::text[]))
        AND EXISTS (SELECT 1 FROM "BroadcastRecipient" r WHERE r."broadcastId" = b.id AND r.status = 'queued')
      LIMIT 20`,
    now.toISOString(),
    customerIds,
  );
  for (const { id } of rows) await skipCancelled(id, budgetMs);
}
