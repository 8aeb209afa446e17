// The callback processor: `loops` concurrent loops (SKIP LOCKED gives each its own
// callbacks) drain stored provider callbacks in batches, woken by the NOTIFY that stores
// each callback (lib/domains/provider/callbacks/accept.ts, lib/db/wakeups.ts: this process's
// or another's) and by a slow safety poll (WORKER_POLL_MS). Two loops overlap one batch's
// database round trips with the next batch's parsing; only the first polls, the others
// sleep until woken, so an idle app pays for one poll (docs/benchmarks.md "Idle CPU").

import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { wakeableSleep } from "@/lib/core/wakeable-sleep";
import { onWakeup } from "@/lib/db/wakeups";
import { processPendingCallbacks } from "./process-batch";

// The longest timer Node keeps (a longer one fires at once).
const UNTIL_WOKEN_MS = 2 ** 31 - 1;

export type CallbackProcessorOptions = {
  batchSize?: number;
  pollMs?: number;
  loops?: number;
  /** As the recovery worker's: called as a loop goes to sleep, with the wake-up count its pass started at. */
  onPause?: (epoch: number) => void;
};

export function startCallbackProcessor(options: CallbackProcessorOptions = {}): { stop: () => Promise<void> } {
  const batchSize = options.batchSize ?? 100;
  const pollMs = options.pollMs ?? env().WORKER_POLL_MS;
  let stopped = false;
  const sleep = wakeableSleep();
  const unlisten = onWakeup("callbacks", sleep.wake);
  const loop = async (_: unknown, index: number) => {
    while (!stopped) {
      const since = sleep.epoch();
      try {
        const r = await processPendingCallbacks(batchSize);
        if (r.callbacks >= batchSize) {
          // A backlog (perhaps found by the poll): the sleeping loops join in.
          if (index === 0) sleep.wake();
          continue;
        }
      } catch (error) {
        log.error({ err: error }, "callback processor error");
      }
      if (stopped) break;
      options.onPause?.(since);
      await sleep.pause(index === 0 ? pollMs : UNTIL_WOKEN_MS, since);
    }
  };
  const loops = Array.from({ length: Math.max(1, options.loops ?? 2) }, loop);
  return {
    stop: async () => {
      stopped = true;
      unlisten();
      sleep.wake();
      await Promise.all(loops);
    },
  };
}
