// Background reconciliation of sends (lib/background.ts): rows a crash left "sending"
// between the provider call and their completion become "unknown" after a timeout
// (message-store.ts reconcileStaleSends). Nothing wakes it: a pass every intervalMs.
import { IDLE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { reconcileStaleSends } from "./message-store";

/** A send takes seconds (provider timeout and retries); older "sending" rows were interrupted. */
export const STALE_SEND_MS = 2 * 60 * 1000;

export function sendReconciler(intervalMs = 30_000, olderThanMs = STALE_SEND_MS): WorkerDefinition {
  return {
    name: "send reconciliation",
    pollMs: intervalMs,
    pass: async () => {
      await reconcileStaleSends(olderThanMs);
      return IDLE;
    },
  };
}
