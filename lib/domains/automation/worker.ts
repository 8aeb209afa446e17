// The automation worker (docs/automation.md): the scheduler's job worker over the automation
// job kinds, run by the one worker loop (lib/background.ts).
import { foregroundIdle } from "@/lib/core/foreground";
import type { WorkerDefinition, WorkerSleep } from "@/lib/core/worker-loop";
import { providerSendLeaseMs } from "@/lib/domains/messaging/dispatch";
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

/**
 * A claim outlives the longest send (providerSendLeaseMs), as the chatbots' and the CSAT's do;
 * other jobs are short. A dead worker's jobs are taken again when it ends.
 */
const jobLeaseMs = providerSendLeaseMs;

/**
 * Rules wait for the callback processor of this process (lib/core/foreground.ts): for the pass
 * running now, and during a burst until it has been quiet for a while, so the burst is applied
 * first and the rules run after it. A wait ends after this long, so a load that never goes
 * quiet still moves the rules a job at a time; 5 s rather than 1 s, so that fewer of a burst's
 * callbacks share the cores with such a job (docs/benchmarks.md "The next limits").
 */
const RULES_YIELD_MAX_MS = 5_000;
const afterCallbacks = () => foregroundIdle(RULES_YIELD_MAX_MS);

export function automationWorker(options: AutomationWorkerOptions = {}): WorkerDefinition {
  return jobWorker({
    name: "automation worker",
    kinds: AUTOMATION_KINDS,
    handle: handleAutomationJob,
    leaseMs: options.leaseMs ?? jobLeaseMs(),
    pollMs: options.pollMs,
    customerIds: options.customerIds ?? null,
    sleep: options.sleep,
    yieldTo: afterCallbacks,
  });
}

/**
 * One pass over the staged inbound messages only (enqueue.ts): their event jobs and timers
 * written, none run. Tests that look at the timers a message set use it; returns how many it handled.
 */
export const runStagedInbound = (options: AutomationWorkerOptions = {}) =>
  runDueJobs({
    name: "automation worker",
    kinds: [JOB_KINDS.inbound],
    handle: handleAutomationJob,
    leaseMs: options.leaseMs ?? jobLeaseMs(),
    customerIds: options.customerIds ?? null,
  });

/** One pass over the due automation jobs (tests drive the worker with it); returns how many it handled. */
export const runAutomationJobs = (options: AutomationWorkerOptions = {}) =>
  runDueJobs({
    name: "automation worker",
    kinds: AUTOMATION_KINDS,
    handle: handleAutomationJob,
    leaseMs: options.leaseMs ?? jobLeaseMs(),
    customerIds: options.customerIds ?? null,
  });
