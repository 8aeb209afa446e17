// The SLA worker (docs/reports.md "SLA policies"): the scheduler's job worker over the SLA
// timers, run by the one worker loop (lib/background.ts).
import type { WorkerDefinition } from "@/lib/core/worker-loop";
import { jobWorker, runDueJobs } from "@/lib/domains/schedule/jobs";
import { handleSlaJob, SLA_JOB_KIND } from "./timers";

const KINDS = [SLA_JOB_KIND];
type Options = { customerIds?: string[] | null; pollMs?: number };

export function slaWorker(options: Options = {}): WorkerDefinition {
  return jobWorker({
    name: "sla worker",
    kinds: KINDS,
    handle: handleSlaJob,
    pollMs: options.pollMs,
    customerIds: options.customerIds ?? null,
  });
}

/** One pass over the due SLA timers (tests drive the worker with it); returns how many were claimed. */
export const runSlaJobs = (options: Options = {}) =>
  runDueJobs({ name: "sla worker", kinds: KINDS, handle: handleSlaJob, customerIds: options.customerIds ?? null });
