// The callback processor, a worker definition (lib/core/worker-loop.ts): `loops` concurrent
// loops (SKIP LOCKED gives each its own callbacks) drain stored provider callbacks in batches,
// woken by the NOTIFY that stores each callback (lib/domains/provider/callbacks/accept.ts,
// lib/db/wakeups.ts: this process's or another's) and by a slow safety poll (WORKER_POLL_MS).
// Two loops overlap one batch's database round trips with the next batch's parsing; only the
// first polls, the others sleep until woken, so an idle app pays for one poll
// (docs/benchmarks.md "Idle CPU").

import { env } from "@/lib/core/env";
import { foreground } from "@/lib/core/foreground";
import { IDLE, MORE, startWorker, type Worker, type WorkerDefinition } from "@/lib/core/worker-loop";
import { wakeupsOn } from "@/lib/db/wakeups";
import { processPendingCallbacks } from "./process-batch";

export type CallbackProcessorOptions = {
  batchSize?: number;
  pollMs?: number;
  loops?: number;
  /** As the recovery worker's: called as a loop goes to sleep, with the wake-up count its pass started at. */
  onPause?: (epoch: number) => void;
};

export function callbackProcessor(options: CallbackProcessorOptions = {}): WorkerDefinition {
  const batchSize = options.batchSize ?? 100;
  return {
    name: "callback processor",
    wakeOn: [wakeupsOn("callbacks")],
    pollMs: options.pollMs ?? env().WORKER_POLL_MS,
    loops: Math.max(1, options.loops ?? 2),
    onPause: options.onPause,
    // A full batch means a backlog (perhaps found by the poll): the next pass at once, and the sleeping loops join in.
    // Foreground (lib/core/foreground.ts): work that can wait, as the automation rules' jobs,
    // lets these passes go first in this process.
    pass: () =>
      foreground(async () => ((await processPendingCallbacks(batchSize)).callbacks >= batchSize ? MORE : IDLE)),
  };
}

export function startCallbackProcessor(options: CallbackProcessorOptions = {}): Worker {
  return startWorker(callbackProcessor(options));
}
