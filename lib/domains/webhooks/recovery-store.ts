// The recovery job's SQL (docs/webhook-recovery.md "How it runs"): claiming jobs under a
// lease (SKIP LOCKED: two workers never hold one job), and one batch at a time, each in a
// transaction fenced by the lease: the job row is locked, the next FAILED deliveries after
// the cursor are marked in WebhookRecoveryItem (primary key: recovery + delivery) and only
// the rows newly marked are set PENDING, then the cursor and the count move. A job cut
// short resumes from its cursor; a delivery it already re-queued is never re-queued again.
import { db, type Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";

export type ClaimedRecovery = { id: string; lease: string; claims: number };

/** Claims up to `limit` QUEUED jobs, or RUNNING ones whose lease ran out (a worker died). */
export async function claimRecoveries(
  limit: number,
  leaseMs: number,
  customerIds: string[] | null,
): Promise<ClaimedRecovery[]> {
  const scope = customerIds ? `AND "customerId" = ANY($3::text[])` : "";
  return db.$queryRawUnsafe<ClaimedRecovery[]>(
    `WITH due AS MATERIALIZED (
       SELECT id FROM "WebhookRecovery"
       WHERE status IN ('QUEUED', 'RUNNING') AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "createdAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "WebhookRecovery" AS r
     SET status = 'RUNNING', claims = r.claims + 1, "startedAt" = COALESCE(r."startedAt", ${NOW_UTC}),
       "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), "updatedAt" = ${NOW_UTC}
     FROM due WHERE r.id = due.id
     RETURNING r.id, r."lockedUntil"::text AS lease, r.claims`,
    ...(customerIds ? [limit, leaseMs, customerIds] : [limit, leaseMs]),
  );
}

export type BatchResult =
  /** More to do: the lease was renewed to `lease`. */
  | { state: "more"; lease: string; requeued: number }
  | { state: "completed" | "failed"; requeued: number }
  /** The lease is no longer this holder's: stop, another worker has (or will get) the job. */
  | { state: "lost"; requeued: 0 };

type JobRow = {
  destinationId: string;
  since: string;
  until: string;
  total: number | null;
  cursorCreatedAt: string | null;
  cursorId: string | null;
  destinationStatus: string;
};

/** Ends a job: COMPLETED, or FAILED with the reason. */
async function finish(tx: Tx, id: string, status: "COMPLETED" | "FAILED", error: string | null) {
  await tx.$executeRawUnsafe(
    `UPDATE "WebhookRecovery" SET status = $2::"RecoveryStatus", error = $3, "lockedUntil" = NULL,
       total = GREATEST(COALESCE(total, 0), requeued), "completedAt" = ${NOW_UTC}, "updatedAt" = ${NOW_UTC}
     WHERE id = $1`,
    id,
    status,
    error,
  );
}

/** Runs one batch of the job held under `lease` (see the file comment). */
export async function runRecoveryBatch(
  id: string,
  lease: string,
  batchSize: number,
  leaseMs: number,
): Promise<BatchResult> {
  return db.$transaction(async (tx) => {
    const jobs = await tx.$queryRawUnsafe<JobRow[]>(
      `SELECT r."destinationId", r.since::text AS since, r.until::text AS until, r.total,
         r."cursorCreatedAt"::text AS "cursorCreatedAt", r."cursorId", d.status::text AS "destinationStatus"
       FROM "WebhookRecovery" AS r JOIN "WebhookDestination" AS d ON d.id = r."destinationId"
       WHERE r.id = $1 AND r.status = 'RUNNING' AND r."lockedUntil" = $2::timestamp(3)
       FOR UPDATE OF r`,
      id,
      lease,
    );
    const job = jobs[0];
    if (!job) return { state: "lost", requeued: 0 };
    if (job.destinationStatus !== "ACTIVE") {
      await finish(tx, id, "FAILED", "The destination was set INACTIVE; nothing more was re-queued");
      return { state: "failed", requeued: 0 };
    }
    const window = `"destinationId" = $1 AND status = 'FAILED'
       AND "createdAt" >= $2::timestamp(3) AND "createdAt" <= $3::timestamp(3)`;
    if (job.total === null) {
      await tx.$executeRawUnsafe(
        `UPDATE "WebhookRecovery" SET total = (SELECT count(*)::int FROM "WebhookDelivery" WHERE ${window})
         WHERE id = $4`,
        job.destinationId,
        job.since,
        job.until,
        id,
      );
    }
    const rows = await tx.$queryRawUnsafe<
      { seen: number; requeued: number; lastCreatedAt: string | null; lastId: string | null }[]
    >(
      `WITH batch AS MATERIALIZED (
         SELECT id, "createdAt" FROM "WebhookDelivery"
         WHERE ${window}
           AND ($4::timestamp(3) IS NULL OR ("createdAt", id) > ($4::timestamp(3), $5::text))
         ORDER BY "createdAt", id LIMIT $6 FOR UPDATE),
       marked AS (
         INSERT INTO "WebhookRecoveryItem" ("recoveryId", "deliveryId") SELECT $7, id FROM batch
         ON CONFLICT DO NOTHING RETURNING "deliveryId"),
       requeued AS (
         UPDATE "WebhookDelivery" AS w SET status = 'PENDING', "nextAttemptAt" = ${NOW_UTC}, "lockedUntil" = NULL,
           "updatedAt" = ${NOW_UTC}
         FROM marked WHERE w.id = marked."deliveryId" AND w.status = 'FAILED' RETURNING w.id),
       last AS (SELECT "createdAt", id FROM batch ORDER BY "createdAt" DESC, id DESC LIMIT 1)
       SELECT (SELECT count(*)::int FROM batch) AS seen, (SELECT count(*)::int FROM requeued) AS requeued,
         (SELECT "createdAt"::text FROM last) AS "lastCreatedAt", (SELECT id FROM last) AS "lastId"`,
      job.destinationId,
      job.since,
      job.until,
      job.cursorCreatedAt,
      job.cursorId,
      batchSize,
      id,
    );
    const r = rows[0] ?? { seen: 0, requeued: 0, lastCreatedAt: null, lastId: null };
    // Wakes the delivery workers when this transaction commits (docs/architecture.md "Background work").
    if (r.requeued > 0) await tx.$executeRawUnsafe(`SELECT ${notifyExpression("deliveries")}`);
    if (r.seen < batchSize) {
      await tx.$executeRawUnsafe(`UPDATE "WebhookRecovery" SET requeued = requeued + $2 WHERE id = $1`, id, r.requeued);
      await finish(tx, id, "COMPLETED", null);
      return { state: "completed", requeued: r.requeued };
    }
    const renewed = await tx.$queryRawUnsafe<{ lease: string }[]>(
      `UPDATE "WebhookRecovery" SET requeued = requeued + $2, "cursorCreatedAt" = $3::timestamp(3), "cursorId" = $4,
         "lockedUntil" = ${NOW_UTC} + ($5 * interval '1 millisecond'), "updatedAt" = ${NOW_UTC}
       WHERE id = $1 RETURNING "lockedUntil"::text AS lease`,
      id,
      r.requeued,
      r.lastCreatedAt,
      r.lastId,
      leaseMs,
    );
    return { state: "more", lease: renewed[0]?.lease ?? lease, requeued: r.requeued };
  });
}

/** Gives a job up after too many claims (each one a worker that died holding it). */
export async function failRecovery(id: string, lease: string, error: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const held = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM "WebhookRecovery" WHERE id = $1 AND "lockedUntil" = $2::timestamp(3) FOR UPDATE`,
      id,
      lease,
    );
    if (held.length > 0) await finish(tx, id, "FAILED", error);
  });
}

/** A stopping worker lets its job go at once (the next claim resumes it from the cursor). */
export async function releaseRecovery(id: string, lease: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "WebhookRecovery" SET "lockedUntil" = NULL, "updatedAt" = ${NOW_UTC}
     WHERE id = $1 AND status = 'RUNNING' AND "lockedUntil" = $2::timestamp(3)`,
    id,
    lease,
  );
}
