// The broadcast worker (lib/background.ts; docs/broadcasts.md "Waking the dispatcher"): a
// definition for the one worker loop (lib/core/worker-loop.ts) whose pass is the dispatcher's
// (dispatcher.ts). Passes run back to back while there is work, a short poll while a
// broadcast is under way, and otherwise asleep until NOTIFY or the next due time (idleMs), so
// an idle app spends no CPU on it. `lanes` (default 2) loops run side by side, so one batch is
// claimed and checked while the calls of another still go at their slots: the pace has no
// gaps between batches.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { wakeableSleep } from "@/lib/core/wakeable-sleep";
import { IDLE, MORE, startWorker, type WorkerDefinition, type WorkerSleep } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { onWakeup } from "@/lib/db/wakeups";
import { type DispatchOptions, withDefaults } from "./dispatch-options";
import { dispatchPass, NOTHING } from "./dispatcher";

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;

export type BroadcastWorkerOptions = DispatchOptions & {
  /** The poll while a broadcast is starting or sending (default 250 ms). */
  pollMs?: number;
  /** The safety poll while nothing is under way (default WORKER_POLL_MS). */
  idlePollMs?: number;
  lanes?: number;
};

/**
 * How long an idle lane sleeps (docs/broadcasts.md "How it sends"): the busy poll while a
 * broadcast is STARTING or SENDING or a cancelled one still has queued recipients; else until
 * the next scheduled start, messaging-limit resume or lease of a recipient left "sending" falls
 * due (one timer), at most the safety poll. Starts, resumes, cancels and retries wake it
 * sooner: the "Broadcast" trigger notifies on every change of state, start or resume time.
 */
async function idleMs(o: Required<DispatchOptions>, pollMs: number, idlePollMs: number): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ busy: boolean; due: number | null }[]>(
    `SELECT EXISTS (SELECT 1 FROM "Broadcast" b WHERE b.status IN ('STARTING', 'SENDING') AND ${SCOPE})
         OR EXISTS (SELECT 1 FROM "Broadcast" b
                     WHERE b.status = 'CANCELLED' AND b."completedAt" > ${UTC(1)} - interval '7 days' AND ${SCOPE}
                       AND EXISTS (SELECT 1 FROM "BroadcastRecipient" r WHERE r."broadcastId" = b.id AND r.status = 'queued')) AS busy,
            extract(epoch FROM LEAST(
              (SELECT min(GREATEST(b."scheduledAt", COALESCE(b."lockedUntil", b."scheduledAt"))) FROM "Broadcast" b
                WHERE b.status = 'SCHEDULED' AND ${SCOPE}),
              (SELECT min(b."resumesAt") FROM "Broadcast" b
                WHERE b.status = 'PAUSED' AND b."pauseReason" = 'messaging_limit' AND ${SCOPE}),
              (SELECT min(r."lockedUntil") FROM "Broadcast" b JOIN "BroadcastRecipient" r ON r."broadcastId" = b.id AND r.status = 'sending'
                WHERE (b.status = 'PAUSED' OR (b.status IN ('CANCELLED', 'COMPLETED') AND b."completedAt" > ${UTC(1)} - interval '1 day'))
                  AND ${SCOPE})
            ) AT TIME ZONE 'UTC')::float8 * 1000 AS due`,
    o.now().toISOString(),
    o.customerIds,
  );
  if (!row || row.busy) return pollMs;
  if (row.due === null) return idlePollMs;
  return Math.min(idlePollMs, Math.max(pollMs, row.due - o.now().getTime()));
}
const SCOPE = `($2::text[] IS NULL OR b."customerId" = ANY($2::text[]))`;

/**
 * The lanes' sleep: woken by NOTIFY on "broadcasts" (`onNotify` first), counting the lanes
 * asleep for longer than the poll (nothing was under way when they looked). It has no `wake`
 * for the loop to call: a pass that made calls wakes the lanes asleep itself (wakeAsleep).
 */
function laneSleep(
  pollMs: number,
  onNotify: () => void,
): WorkerSleep & { asleep: () => number; wakeAsleep: () => void } {
  const sleep = wakeableSleep();
  let asleep = 0;
  const unsubscribe = onWakeup("broadcasts", () => {
    onNotify();
    sleep.wake();
  });
  return {
    epoch: sleep.epoch,
    pause: async (ms, since) => {
      const long = ms > pollMs;
      if (long) asleep += 1;
      await sleep.pause(ms, since);
      if (long) asleep -= 1;
    },
    close: () => {
      unsubscribe();
      sleep.wake();
    },
    asleep: () => asleep,
    wakeAsleep: () => {
      if (asleep > 0) sleep.wake();
    },
  };
}

/**
 * The worker's definition and its lanes asleep. The first lane keeps the timer for the next due
 * time and the safety poll; the others sleep until woken (a NOTIFY, or another lane's calls),
 * so an idle app pays for one lane's passes.
 */
export function broadcastWorker(options: BroadcastWorkerOptions = {}): WorkerDefinition & { idleLanes: () => number } {
  const pollMs = options.pollMs ?? 250;
  const idlePollMs = options.idlePollMs ?? env().WORKER_POLL_MS;
  let housekeptAt = 0;
  // A NOTIFY (a start, a resume, a cancel): the next pass does the housekeeping whatever the time.
  let notified = false;
  const sleep = laneSleep(pollMs, () => {
    notified = true;
  });
  return {
    name: "broadcast worker",
    pollMs: idlePollMs,
    loops: Math.max(1, options.lanes ?? 2),
    sleep,
    idleLanes: sleep.asleep,
    pass: async ({ signal, loop }) => {
      let result = NOTHING;
      let failed = false;
      try {
        // Scheduled starts, resumes and stale sends once per poll interval, not before every batch.
        const housekeeping = notified || Date.now() - housekeptAt >= pollMs;
        if (housekeeping) {
          housekeptAt = Date.now();
          notified = false;
        }
        result = await dispatchPass({ ...options, housekeeping });
      } catch (error) {
        failed = true;
        log.error({ err: error }, "broadcast worker error");
      }
      if (signal.aborted) return IDLE;
      // Calls made: the next batch at once (its calls wait for the sender's next free slots,
      // pacedCalls), and lanes asleep for the idle time join in.
      if (result.calls > 0) {
        sleep.wakeAsleep();
        await sleep.pause(0);
        return MORE;
      }
      // A failed pass: the next one after the busy poll (a wake-up ends it sooner).
      let ms = pollMs;
      if (!failed) {
        try {
          ms = await idleMs(withDefaults(options), pollMs, idlePollMs);
        } catch (error) {
          log.error({ err: error }, "broadcast worker error");
        }
      }
      // Only the first lane keeps the timer and the safety poll (the loop sleeps the others until woken).
      // A wake-up that came during the pass (its write may have committed after the pass read)
      // ends the pause at once (lib/core/worker-loop.ts).
      if (loop > 0 && ms > pollMs) return IDLE;
      return { more: false, sleepMs: ms };
    },
  };
}

/** Starts the worker (tests; lib/background.ts starts its definition); `idleLanes`: lanes asleep until woken or the next due time (tests wait for them before they act). */
export function startBroadcastWorker(options: BroadcastWorkerOptions = {}): {
  stop: () => Promise<void>;
  idleLanes: () => number;
} {
  const definition = broadcastWorker(options);
  const worker = startWorker(definition);
  return { stop: worker.stop, idleLanes: definition.idleLanes };
}
