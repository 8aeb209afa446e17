// In-process wake-up: the callback processor tells a delivery worker living in the same
// process that deliveries were queued, so it need not wait for its next poll.

import { type WakeableSleep, wakeableSleep } from "@/lib/core/wakeable-sleep";
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

export type WorkerSleep = Pick<WakeableSleep, "epoch" | "pause"> & {
  /** Stops listening and ends the current pause (the worker's stop). */
  close(): void;
};

/**
 * A background worker's sleep (docs/architecture.md "Background work"): a pause ends early
 * when `channel` is notified, and, unless `inProcess` is false, when deliveries are queued
 * in this process. Pass the epoch noted before a pass to `pause` so a wake-up during the
 * pass is not lost (lib/core/wakeable-sleep.ts).
 */
export function workerSleep(channel: Channel, options: { inProcess?: boolean } = {}): WorkerSleep {
  const sleep = wakeableSleep();
  const unsubscribe = options.inProcess === false ? () => {} : onDeliveriesQueued(sleep.wake);
  const unlisten = onWakeup(channel, sleep.wake);
  return {
    epoch: sleep.epoch,
    pause: sleep.pause,
    close: () => {
      unsubscribe();
      unlisten();
      sleep.wake();
    },
  };
}
