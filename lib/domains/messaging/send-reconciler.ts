// Background reconciliation of sends (lib/background.ts): rows a crash left "sending"
// between the provider call and their completion become "unknown" after a timeout
// (message-store.ts reconcileStaleSends).
import { log } from "@/lib/core/log";
import { reconcileStaleSends } from "./message-store";

/** A send takes seconds (provider timeout and retries); older "sending" rows were interrupted. */
export const STALE_SEND_MS = 2 * 60 * 1000;

export function startSendReconciler(intervalMs = 30_000, olderThanMs = STALE_SEND_MS): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = reconcileStaleSends(olderThanMs)
      .catch((error) => log.warn({ err: error }, "send reconciliation failed"))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
