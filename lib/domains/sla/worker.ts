// The SLA worker (docs/reports.md "SLA policies"): the scheduler's job worker over the SLA
// timers and the policy changes they follow, run by the one worker loop (lib/background.ts).
import type { WorkerDefinition } from "@/lib/core/worker-loop";
import { type ClaimedJob, jobWorker, runDueJobs } from "@/lib/domains/schedule/jobs";
import { handlePolicyChangeJob, SLA_POLICY_JOB_KIND } from "./policy-change";
import { handleSlaJob, SLA_JOB_KIND } from "./timers";

const KINDS = [SLA_JOB_KIND, SLA_POLICY_JOB_KIND];
type Options = { customerIds?: string[] | null; pollMs?: number };

const handle = (job: ClaimedJob) => (job.kind === SLA_POLICY_JOB_KIND ? handlePolicyChangeJob(job) : handleSlaJob(job));

export function slaWorker(options: Options = {}): WorkerDefinition {
  return jobWorker({
    name: "sla worker",
    kinds: KINDS,
    handle,
    pollMs: options.pollMs,
    customerIds: options.customerIds ?? null,
  });
}

/** One pass over the due SLA jobs (tests drive the worker with it); returns how many were claimed. */
export const runSlaJobs = (options: Options = {}) =>
  runDueJobs({ name: "sla worker", kinds: KINDS, handle, customerIds: options.customerIds ?? null });
