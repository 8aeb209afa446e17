// In-process wake-up: the callback processor tells a delivery worker living in the same
// process that deliveries were queued, so it need not wait for its next poll.
import { type Channel, onWakeup } from "@/lib/db/wakeups";

type Listener = () => void;
const listeners = new Set<Listener>();

export function onDeliveriesQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deliveriesQueued(): void {
  for (const listener of listeners) listener();
}

export type WorkerSleep = {
  /** Sleeps `ms`, or less when woken. */
  pause(ms: number): Promise<void>;
  /** Stops listening and ends the current pause (the worker's stop). */
  close(): void;
};

/**
 * A background worker's sleep (docs/architecture.md "Background work"): a pause ends early
 * when deliveries are queued in this process or `channel` is notified.
 */
export function workerSleep(channel: Channel): WorkerSleep {
  let wake: (() => void) | undefined;
  // A wake-up that comes while the worker is not paused (busy with a claim query) is kept
  // for its next pause, which then ends at once: otherwise work queued during that query
  // waited for the safety poll (10 s lags in bench:events, docs/event-pipeline.md).
  let missed = false;
  const poke = () => {
    if (wake) wake();
    else missed = true;
  };
  const unsubscribe = onDeliveriesQueued(poke);
  const unlisten = onWakeup(channel, poke);
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
        if (missed) {
          missed = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          if (wake === done) wake = undefined;
          resolve();
        }
        wake = done;
      }),
    close: () => {
      unsubscribe();
      unlisten();
      wake?.();
    },
  };
}
