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
  const unsubscribe = onDeliveriesQueued(() => wake?.());
  const unlisten = onWakeup(channel, () => wake?.());
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
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
