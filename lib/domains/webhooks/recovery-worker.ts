// The recovery worker (docs/webhook-recovery.md "How it runs"): claims queued recovery jobs
// under a lease and runs them batch by batch (recovery-store.ts). It sleeps until a job is
// queued (NOTIFY on the "recoveries" channel, lib/db/wakeups.ts) or the safety poll.
// Started beside the delivery worker (lib/background.ts); several may run at once.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { IDLE, MORE, startWorker, type WorkerDefinition } from "@/lib/core/worker-loop";
import { wakeupsOn } from "@/lib/db/wakeups";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { claimRecoveries, failRecovery, releaseRecovery, runRecoveryBatch } from "./recovery-store";

export type RecoveryWorkerOptions = {
  pollMs?: number;
  /** Deliveries re-queued per transaction. */
  batchSize?: number;
  /** How long a claim holds a job; renewed by every batch. */
  leaseMs?: number;
  /** Only these customers' jobs (isolated tests). */
  customerIds?: string[] | null;
  /** Checked between batches: true stops the job there (it is released and resumed later). */
  shouldStop?: () => boolean;
  /**
   * Called as the loop goes to sleep, with the wake-up count its pass started at: a test
   * waits for it before it proves that a NOTIFY, not a pass already running, starts the job.
   */
  onPause?: (epoch: number) => void;
};

/** Claims beyond this give the job up (FAILED): a job that kills its worker stops. */
export const MAX_RECOVERY_CLAIMS = 5;
const DEFAULTS = { batchSize: 500, leaseMs: 60_000 };

/** Runs one claimed job until it ends, its lease is lost, or shouldStop() says so. */
async function runJob(
  job: { id: string; lease: string; claims: number },
  o: Required<Pick<RecoveryWorkerOptions, "batchSize" | "leaseMs">> & RecoveryWorkerOptions,
) {
  if (job.claims > MAX_RECOVERY_CLAIMS) {
    await failRecovery(job.id, job.lease, `Interrupted ${MAX_RECOVERY_CLAIMS} times; given up`);
    return;
  }
  let lease = job.lease;
  for (;;) {
    const r = await runRecoveryBatch(job.id, lease, o.batchSize, o.leaseMs);
    if (r.requeued > 0) deliveriesQueued(); // an in-process delivery worker need not wait for NOTIFY
    if (r.state !== "more") return;
    lease = r.lease;
    if (o.shouldStop?.()) {
      await releaseRecovery(job.id, lease);
      return;
    }
  }
}

/** One pass: claims due jobs and runs each; returns how many were claimed. */
export async function runDueRecoveries(options: RecoveryWorkerOptions = {}): Promise<number> {
  const o = { ...DEFAULTS, ...options };
  const jobs = await claimRecoveries(2, o.leaseMs, o.customerIds ?? null);
  for (const job of jobs) {
    try {
      await runJob(job, o);
    } catch (error) {
      // The lease runs out and the job is claimed again from its cursor.
      log.error({ err: error, recoveryId: job.id }, "webhook recovery batch failed");
    }
  }
  return jobs.length;
}

export function startRecoveryWorker(options: RecoveryWorkerOptions = {}): { stop: () => Promise<void> } {
  return startWorker(recoveryWorker(options));
}

/** The recovery worker as a definition for the worker loop (lib/background.ts). */
export function recoveryWorker(options: RecoveryWorkerOptions = {}): WorkerDefinition {
  return {
    name: "webhook recovery worker",
    // Only NOTIFY "recoveries": the in-process "deliveries queued" signal fires on every
    // processed callback batch and never means a recovery is waiting.
    wakeOn: [wakeupsOn("recoveries")],
    pollMs: options.pollMs ?? Math.max(250, env().WORKER_POLL_MS),
    onPause: options.onPause,
    pass: async ({ signal }) =>
      (await runDueRecoveries({ ...options, shouldStop: () => signal.aborted })) > 0 ? MORE : IDLE,
  };
}
