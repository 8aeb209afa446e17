// The automation worker (docs/automation.md): the scheduler's job worker over the automation
// job kinds, run by the one worker loop (lib/background.ts).
import type { WorkerDefinition, WorkerSleep } from "@/lib/core/worker-loop";
import { jobWorker, runDueJobs } from "@/lib/domains/schedule/jobs";
import { JOB_KINDS } from "./actions";
import { handleAutomationJob } from "./runner";

export const AUTOMATION_KINDS = Object.values(JOB_KINDS);

export type AutomationWorkerOptions = {
  customerIds?: string[] | null;
  pollMs?: number;
  leaseMs?: number;
  sleep?: WorkerSleep;
};

/** A send may take the provider's longest attempt; other jobs are short. */
const LEASE_MS = 120_000;

export function automationWorker(options: AutomationWorkerOptions = {}): WorkerDefinition {
  return jobWorker({
    name: "automation worker",
    kinds: AUTOMATION_KINDS,
    handle: handleAutomationJob,
    leaseMs: options.leaseMs ?? LEASE_MS,
    pollMs: options.pollMs,
    customerIds: options.customerIds ?? null,
    sleep: options.sleep,
  });
}

/** One pass over the due automation jobs (tests drive the worker with it); returns how many were claimed. */
export const runAutomationJobs = (options: AutomationWorkerOptions = {}) =>
  runDueJobs({
    name: "automation worker",
    kinds: AUTOMATION_KINDS,
    handle: handleAutomationJob,
    leaseMs: options.leaseMs ?? LEASE_MS,
    customerIds: options.customerIds ?? null,
  });
