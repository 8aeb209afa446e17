// The callback processor: `loops` concurrent loops (SKIP LOCKED gives each its own
// callbacks) drain stored provider callbacks in batches, woken by the endpoint when it
// runs in the same process, by NOTIFY from any process (lib/db/wakeups.ts), and by a slow
// safety poll (WORKER_POLL_MS). Two loops overlap one batch's
// database round trips with the next batch's parsing.
import { onWakeup } from "@/lib/db/wakeups";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { onCallbackStored } from "@/lib/provider/callbacks/handler";
import { processPendingCallbacks } from "./process-batch";

export type CallbackProcessorOptions = { batchSize?: number; pollMs?: number; loops?: number };

export function startCallbackProcessor(options: CallbackProcessorOptions = {}): { stop: () => Promise<void> } {
  const batchSize = options.batchSize ?? 100;
  const pollMs = options.pollMs ?? env().WORKER_POLL_MS;
  let stopped = false;
  const wakers = new Set<() => void>();
  // A wake-up while every loop is busy is kept for the next sleep (which then ends at once):
  // otherwise a callback stored during the last batch waited for the safety poll.
  let missed = false;
  const wakeAll = () => {
    if (wakers.size === 0) missed = true;
    for (const w of [...wakers]) w();
  };
  const unsubscribe = onCallbackStored(wakeAll);
  const unlisten = onWakeup("callbacks", wakeAll);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (missed) {
        missed = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });
  const loop = async () => {
    while (!stopped) {
      try {
        const r = await processPendingCallbacks(batchSize);
        if (r.callbacks >= batchSize) continue;
      } catch (error) {
        log.error({ err: error }, "callback processor error");
      }
      if (!stopped) await sleep(pollMs);
    }
  };
  const loops = Array.from({ length: Math.max(1, options.loops ?? 2) }, loop);
  return {
    stop: async () => {
      stopped = true;
      unsubscribe();
      unlisten();
      wakeAll();
      await Promise.all(loops);
    },
  };
}
