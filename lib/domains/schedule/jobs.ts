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
import { db, hotRows, type Tx } from "@/lib/db";
import { NOW_UTC, newIds } from "@/lib/db/sql";
import { notifyExpression, wakeupsWhen } from "@/lib/db/wakeups";

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

/**
 * The "jobs" notification names the kinds of the jobs written due now, separated by this, and a
 * job worker wakes only for its own kinds (wakesFor): each batch of callbacks an account with
 * rules applies stages a job for the automation worker, and woke the SLA and CSAT workers too,
 * each for a claim and a read of its next due time that found nothing (docs/automation.md
 * "Where rules run"). An empty payload wakes every job worker.
 */
const KINDS_SEPARATOR = ",";

/** The "jobs" notification's payload for jobs of these kinds written due now (wakesFor reads it). */
export const wakePayload = (kinds: readonly string[]): string => [...new Set(kinds)].sort().join(KINDS_SEPARATOR);

/** Whether a "jobs" notification concerns a worker of these kinds. */
export const wakesFor =
  (kinds: readonly string[]) =>
  (payload: string): boolean =>
    payload === "" || payload.split(KINDS_SEPARATOR).some((kind) => kinds.includes(kind));

/**
 * Writes the jobs that are new (by key) in `tx`; returns how many were. A job due now wakes its
 * kind's workers at commit. One statement, the NOTIFY in it (sent when a row was written): in the
 * callback processor's transaction, where the automation rules stage each batch's messages, a
 * second statement through the ORM cost the callbacks of an account with rules about 6 ms at
 * the median at 200 messages a second (docs/benchmarks.md "The next limits").
 */
export async function scheduleJobs(tx: Tx, jobs: NewJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const ids = newIds("job_", jobs.length);
  const dueNow = wakePayload(jobs.filter((j) => j.dueAt.getTime() <= Date.now() + 1_000).map((j) => j.kind));
  const rows = await tx.$queryRawUnsafe<{ written: number }[]>(
    `WITH written AS (
       INSERT INTO "ScheduledJob" (id, "customerId", kind, key, "subjectId", "dueAt", payload, status, attempts, "createdAt", "updatedAt")
       SELECT id, "customerId", kind, key, "subjectId", "dueAt", payload, 'PENDING', 0, ${NOW_UTC}, ${NOW_UTC}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[], $7::jsonb[])
         AS t(id, "customerId", kind, key, "subjectId", "dueAt", payload)
       ON CONFLICT (key) DO NOTHING
       RETURNING 1)
     SELECT (SELECT count(*) FROM written)::int AS written,
       (SELECT count(${notifyExpression("jobs", "$8")}) WHERE $8 <> '' AND EXISTS (SELECT 1 FROM written))::int AS woke`,
    ids,
    jobs.map((j) => j.customerId),
    jobs.map((j) => j.kind),
    jobs.map((j) => j.key),
    jobs.map((j) => j.subjectId ?? null),
    jobs.map((j) => j.dueAt.toISOString()),
    jobs.map((j) => JSON.stringify(j.payload)),
    dueNow,
  );
  return rows[0]?.written ?? 0;
}

/**
 * Claims up to `limit` due PENDING jobs of these kinds for `leaseMs`. A plain statement on the
 * pg pool (hotRows): every job worker runs it on each wake-up, and Prisma's per-statement CPU
 * was most of a claim (docs/benchmarks.md "Automation rules").
 */
export async function claimDueJobs(
  kinds: readonly string[],
  limit: number,
  leaseMs: number,
  customerIds: readonly string[] | null = null,
): Promise<ClaimedJob[]> {
  const scope = customerIds ? `AND "customerId" = ANY($4::text[])` : "";
  return hotRows<ClaimedJob>({
    text: `WITH due AS MATERIALIZED (
       SELECT id FROM "ScheduledJob"
       WHERE status = 'PENDING' AND kind = ANY($3::text[]) AND "dueAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "dueAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "ScheduledJob" AS j
     SET "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), attempts = j.attempts + 1, "updatedAt" = ${NOW_UTC}
     FROM due WHERE j.id = due.id
     RETURNING j.id, j."customerId", j.kind, j.key, j."subjectId", j."dueAt", j.payload, j.attempts,
       j."lockedUntil"::text AS lease`,
    values: customerIds ? [limit, leaseMs, [...kinds], [...customerIds]] : [limit, leaseMs, [...kinds]],
  });
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

/**
 * Records the outcomes of several claims in one plain statement (a pass's jobs, finished
 * together); returns the ids whose lease was lost (another worker holds them now).
 */
export async function finishJobs(finished: { job: Pick<ClaimedJob, "id" | "lease">; outcome: JobOutcome }[]) {
  if (finished.length === 0) return [];
  const column = <T>(f: (x: { job: Pick<ClaimedJob, "id" | "lease">; outcome: JobOutcome }) => T) => finished.map(f);
  const rows = await hotRows<{ id: string }>({
    text: `UPDATE "ScheduledJob" AS j SET status = t.status, "lastError" = t.error, "lockedUntil" = NULL,
         "updatedAt" = ${NOW_UTC}, "dueAt" = COALESCE(t.due, j."dueAt"), payload = COALESCE(t.payload, j.payload),
         attempts = CASE WHEN t.reset THEN 0 ELSE j.attempts END
       FROM unnest($1::text[], $2::timestamp(3)[], $3::text[], $4::text[], $5::timestamp(3)[], $6::jsonb[], $7::boolean[])
         AS t(id, lease, status, error, due, payload, reset)
       WHERE j.id = t.id AND j."lockedUntil" = t.lease
       RETURNING j.id`,
    values: [
      column((x) => x.job.id),
      column((x) => x.job.lease),
      column((x) => x.outcome.status),
      column(({ outcome: o }) =>
        o.status === "FAILED"
          ? o.error.slice(0, 500)
          : o.status === "PENDING"
            ? (o.error?.slice(0, 500) ?? null)
            : null,
      ),
      column(({ outcome: o }) => (o.status === "PENDING" ? o.dueAt.toISOString() : null)),
      column(({ outcome: o }) => (o.status === "PENDING" && o.payload ? JSON.stringify(o.payload) : null)),
      // A timer moved (no error) starts its attempts afresh; a retry keeps counting.
      column(({ outcome: o }) => o.status === "PENDING" && !o.error),
    ],
  });
  const kept = new Set(rows.map((r) => r.id));
  return finished.filter((x) => !kept.has(x.job.id)).map((x) => x.job.id);
}

/**
 * Hands claimed jobs back unhandled (a pass that stopped early, runDueJobs): due as they were,
 * the claim not counted as an attempt. A job whose lease was lost meanwhile is left alone.
 */
export async function releaseJobs(jobs: Pick<ClaimedJob, "id" | "lease">[]): Promise<void> {
  if (jobs.length === 0) return;
  await hotRows({
    text: `UPDATE "ScheduledJob" AS j SET "lockedUntil" = NULL, attempts = GREATEST(j.attempts - 1, 0),
         "updatedAt" = ${NOW_UTC}
       FROM unnest($1::text[], $2::timestamp(3)[]) AS t(id, lease)
       WHERE j.id = t.id AND j."lockedUntil" = t.lease`,
    values: [jobs.map((j) => j.id), jobs.map((j) => j.lease)],
  });
}

export type JobWorkerOptions = {
  /** Names the worker in its log lines. */
  name: string;
  kinds: readonly string[];
  /**
   * Handles one claimed job; what it returns is recorded. A throw is retried with a backoff, up
   * to maxAttempts. `pass` lives for one pass (one claim): a handler may keep there what every
   * job of the pass reads alike (automation: the account's rules and business hours).
   */
  handle: (job: ClaimedJob, pass: Map<string, unknown>) => Promise<JobOutcome>;
  batchSize?: number;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  customerIds?: readonly string[] | null;
  sleep?: WorkerSleep;
  /**
   * Awaited before the claim and before each later job: work that can wait lets other work of
   * the process go first (the automation worker: lib/core/foreground.ts). It resolves false when
   * it stopped waiting with that work still busy: the claim then takes one job, and a pass
   * stops there and hands its other jobs back (as it does once a quarter of the lease is spent).
   */
  yieldTo?: () => Promise<boolean>;
};

/** Outcomes are written together, at the end of a pass or once this long has passed since the last write. */
const FINISH_EVERY_MS = 1_000;

/**
 * One pass: claims due jobs, handles them one after another, and records their outcomes in
 * one statement (or one a second in a long pass); returns how many it handled (claimed, less
 * those handed back: see `yieldTo`). A job that
 * throws is retried alone: the others of its pass keep their outcomes. A crash before the
 * write leaves the pass's jobs claimed: when the lease ends they run again, and each handler
 * finds what it already did (a rule's run key, a send's message id), as after a crash
 * between a job and its finish.
 */
export async function runDueJobs(options: JobWorkerOptions): Promise<number> {
  const idle = (await options.yieldTo?.()) ?? true;
  const leaseMs = options.leaseMs ?? 60_000;
  const claimedAt = Date.now();
  const limit = idle ? (options.batchSize ?? 50) : 1;
  const jobs = await claimDueJobs(options.kinds, limit, leaseMs, options.customerIds ?? null);
  const maxAttempts = options.maxAttempts ?? 5;
  const pass = new Map<string, unknown>();
  let finished: { job: ClaimedJob; outcome: JobOutcome }[] = [];
  let lastWrite = Date.now();
  const write = async () => {
    const lost = await finishJobs(finished);
    finished = [];
    lastWrite = Date.now();
    for (const jobId of lost) log.warn({ jobId, worker: options.name }, "scheduled job lease lost");
  };
  let handedBack: ClaimedJob[] = [];
  try {
    for (const [index, job] of jobs.entries()) {
      // Before each job but the first (the claim waited just now). A wait that runs out (the
      // other work still busy) ends the pass, and so does a quarter of the lease spent: the
      // pass's other jobs go back unhandled, for the next claim. Before, the rest of a pass
      // ran at once after a quarter of the lease, a burst of rule jobs 17 s into a burst of
      // callbacks (docs/automation.md "Where rules run").
      if (index > 0 && options.yieldTo) {
        const go = Date.now() - claimedAt < leaseMs / 4 && (await options.yieldTo());
        if (!go) {
          handedBack = jobs.slice(index);
          break;
        }
      }
      let outcome: JobOutcome;
      try {
        outcome = await options.handle(job, pass);
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
      finished.push({ job, outcome });
      if (Date.now() - lastWrite >= FINISH_EVERY_MS) await write();
    }
  } finally {
    // Even when the database failed mid-pass: what was handled is recorded if it can be, and
    // what was handed back is released (else it waits for its lease to end).
    try {
      if (finished.length > 0) await write();
    } finally {
      await releaseJobs(handedBack).catch((error) =>
        log.warn(
          { err: error, worker: options.name },
          "scheduled jobs not handed back: taken again when their lease ends",
        ),
      );
    }
  }
  return jobs.length - handedBack.length;
}

/** The earliest due time of the PENDING jobs of these kinds, or null (the loop sleeps until then). */
async function nextDue(kinds: readonly string[], customerIds: readonly string[] | null): Promise<Date | null> {
  const rows = await hotRows<{ due: Date | null }>({
    text: `SELECT min("dueAt") AS due FROM "ScheduledJob" WHERE status = 'PENDING' AND kind = ANY($1::text[])
       AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC})
       ${customerIds ? `AND "customerId" = ANY($2::text[])` : ""}`,
    values: customerIds ? [[...kinds], [...customerIds]] : [[...kinds]],
  });
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
    wakeOn: [wakeupsWhen("jobs", wakesFor(options.kinds))],
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
