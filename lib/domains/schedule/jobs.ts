// Durable scheduled jobs (docs/automation.md "Time triggers"): work due at a time, kept in the
// database so a restart neither loses nor repeats it. Written in the caller's transaction
// (an outbox: committed with what caused it, or not at all); `key` is unique, so scheduling
// the same thing twice (a replayed callback) writes nothing. A worker claims due jobs under a
// lease (FOR UPDATE SKIP LOCKED: two workers never hold one job) and finishes them fenced by
// that lease; a worker that dies lets its jobs go when the lease ends. Knows no domain: each
// domain names its `kind`s and gives the worker its handler (automation rules, SLA timers).
import { retryDelayMs } from "@/lib/core/backoff";
import { log } from "@/lib/core/log";
import type { WorkerDefinition, WorkerSleep } from "@/lib/core/worker-loop";
import { db, type Tx } from "@/lib/db";
import { NOW_UTC, newIds } from "@/lib/db/sql";
import { notifyStatement, wakeupsOn } from "@/lib/db/wakeups";

export type NewJob = {
  customerId: string;
  kind: string;
  /** Unique across all jobs: the same key is scheduled once. */
  key: string;
  /** What the job waits on (a conversation uid): cancelJobs() finds it by this. */
  subjectId?: string | null;
  dueAt: Date;
  payload: Record<string, unknown>;
};

export type ClaimedJob = {
  id: string;
  customerId: string;
  kind: string;
  key: string;
  subjectId: string | null;
  dueAt: Date;
  payload: Record<string, unknown>;
  /** Claims so far, this one included. */
  attempts: number;
  lease: string;
};

/** Writes the jobs that are new (by key) in `tx`; returns how many were. A job due now wakes the workers at commit. */
export async function scheduleJobs(tx: Tx, jobs: NewJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const ids = newIds("job_", jobs.length);
  const count = await tx.$executeRawUnsafe(
    `INSERT INTO "ScheduledJob" (id, "customerId", kind, key, "subjectId", "dueAt", payload, status, attempts, "createdAt", "updatedAt")
     SELECT id, "customerId", kind, key, "subjectId", "dueAt", payload, 'PENDING', 0, ${NOW_UTC}, ${NOW_UTC}
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[], $7::jsonb[])
       AS t(id, "customerId", kind, key, "subjectId", "dueAt", payload)
     ON CONFLICT (key) DO NOTHING`,
    ids,
    jobs.map((j) => j.customerId),
    jobs.map((j) => j.kind),
    jobs.map((j) => j.key),
    jobs.map((j) => j.subjectId ?? null),
    jobs.map((j) => j.dueAt.toISOString()),
    jobs.map((j) => JSON.stringify(j.payload)),
  );
  if (count > 0 && jobs.some((j) => j.dueAt.getTime() <= Date.now() + 1_000)) {
    await tx.$executeRaw(notifyStatement("jobs"));
  }
  return count;
}

/** Claims up to `limit` due PENDING jobs of these kinds for `leaseMs`. */
export async function claimDueJobs(
  kinds: readonly string[],
  limit: number,
  leaseMs: number,
  customerIds: readonly string[] | null = null,
): Promise<ClaimedJob[]> {
  const scope = customerIds ? `AND "customerId" = ANY($4::text[])` : "";
  return db.$queryRawUnsafe<ClaimedJob[]>(
    `WITH due AS MATERIALIZED (
       SELECT id FROM "ScheduledJob"
       WHERE status = 'PENDING' AND kind = ANY($3::text[]) AND "dueAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "dueAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "ScheduledJob" AS j
     SET "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), attempts = j.attempts + 1, "updatedAt" = ${NOW_UTC}
     FROM due WHERE j.id = due.id
     RETURNING j.id, j."customerId", j.kind, j.key, j."subjectId", j."dueAt", j.payload, j.attempts,
       j."lockedUntil"::text AS lease`,
    ...(customerIds ? [limit, leaseMs, [...kinds], [...customerIds]] : [limit, leaseMs, [...kinds]]),
  );
}

/**
 * What became of a claimed job: done, cancelled (nothing to do any more), failed for good,
 * or due again at `dueAt` with a `payload` the handler updated (a timer moved).
 */
export type JobOutcome =
  | { status: "DONE" | "CANCELLED" }
  | { status: "FAILED"; error: string }
  | { status: "PENDING"; dueAt: Date; payload?: Record<string, unknown>; error?: string };

/** Records the outcome of one claim; false when the lease was lost (another worker holds the job). */
export async function finishJob(
  job: Pick<ClaimedJob, "id" | "lease">,
  outcome: JobOutcome,
  tx: Tx = db,
): Promise<boolean> {
  const pending = outcome.status === "PENDING";
  const count = await tx.$executeRawUnsafe(
    `UPDATE "ScheduledJob" SET status = $3, "lastError" = $4, "lockedUntil" = NULL, "updatedAt" = ${NOW_UTC},
       "dueAt" = COALESCE($5::timestamp(3), "dueAt"), payload = COALESCE($6::jsonb, payload),
       attempts = CASE WHEN $7 THEN 0 ELSE attempts END
     WHERE id = $1 AND "lockedUntil" = $2::timestamp(3)`,
    job.id,
    job.lease,
    outcome.status,
    outcome.status === "FAILED" ? outcome.error.slice(0, 500) : pending ? (outcome.error?.slice(0, 500) ?? null) : null,
    pending ? outcome.dueAt.toISOString() : null,
    pending && outcome.payload ? JSON.stringify(outcome.payload) : null,
    // A timer moved (no error) starts its attempts afresh; a retry keeps counting.
    pending && !outcome.error,
  );
  return count === 1;
}

export type JobWorkerOptions = {
  /** Names the worker in its log lines. */
  name: string;
  kinds: readonly string[];
  /** Handles one claimed job; what it returns is recorded. A throw is retried with a backoff, up to maxAttempts. */
  handle: (job: ClaimedJob) => Promise<JobOutcome>;
  batchSize?: number;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  customerIds?: readonly string[] | null;
  sleep?: WorkerSleep;
};

/** One pass: claims due jobs and handles them; returns how many were claimed. */
export async function runDueJobs(options: JobWorkerOptions): Promise<number> {
  const jobs = await claimDueJobs(
    options.kinds,
    options.batchSize ?? 50,
    options.leaseMs ?? 60_000,
    options.customerIds ?? null,
  );
  const maxAttempts = options.maxAttempts ?? 5;
  for (const job of jobs) {
    let outcome: JobOutcome;
    try {
      outcome = await options.handle(job);
    } catch (error) {
      log.error({ err: error, jobId: job.id, kind: job.kind, worker: options.name }, "scheduled job failed");
      outcome =
        job.attempts >= maxAttempts
          ? { status: "FAILED", error: "internal error" }
          : {
              status: "PENDING",
              dueAt: new Date(Date.now() + retryDelayMs(job.attempts, 1_000, 60_000)),
              error: "internal error",
            };
    }
    if (!(await finishJob(job, outcome))) log.warn({ jobId: job.id, worker: options.name }, "scheduled job lease lost");
  }
  return jobs.length;
}

/** The earliest due time of the PENDING jobs of these kinds, or null (the loop sleeps until then). */
async function nextDue(kinds: readonly string[], customerIds: readonly string[] | null): Promise<Date | null> {
  const rows = await db.$queryRawUnsafe<{ due: Date | null }[]>(
    `SELECT min("dueAt") AS due FROM "ScheduledJob" WHERE status = 'PENDING' AND kind = ANY($1::text[])
       AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC})
       ${customerIds ? `AND "customerId" = ANY($2::text[])` : ""}`,
    ...(customerIds ? [[...kinds], [...customerIds]] : [[...kinds]]),
  );
  return rows[0]?.due ?? null;
}

/**
 * A worker definition over some kinds of jobs (lib/core/worker-loop.ts): woken by NOTIFY on
 * "jobs" when a job due now is written, else asleep until the next due time or the poll.
 * Idle, it reads one indexed minimum per poll whatever the number of pending timers.
 */
export function jobWorker(options: JobWorkerOptions): WorkerDefinition {
  const batchSize = options.batchSize ?? 50;
  const pollMs = options.pollMs ?? 5_000;
  return {
    name: options.name,
    wakeOn: [wakeupsOn("jobs")],
    sleep: options.sleep,
    pollMs,
    pass: async () => {
      const claimed = await runDueJobs({ ...options, batchSize });
      if (claimed >= batchSize) return { more: true };
      const due = await nextDue(options.kinds, options.customerIds ?? null);
      return { more: false, sleepMs: due ? Math.max(0, due.getTime() - Date.now()) : pollMs };
    },
  };
}
