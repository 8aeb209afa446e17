// The one background worker loop (docs/architecture.md "Background work"): a worker is a
// definition (a name, what wakes it, a safety poll and a pass), and this runs it. Passes run
// one after another: at once while a pass says more work is waiting, else after a sleep
// that a wake-up ends early (NOTIFY on a channel: `wakeupsOn`, lib/db/wakeups.ts). A
// wake-up that comes during a pass is not lost: the epoch is noted before the pass reads,
// and the sleep after it returns at once if the epoch moved (lib/core/wakeable-sleep.ts).
// A pass that throws is logged and the next one waits a backoff (doubling, up to the poll),
// so a failing dependency is not hammered; stop() ends the sleep and waits for the pass.
import { log } from "./log";
import { type WakeableSleep, wakeableSleep } from "./wakeable-sleep";

/** Calls `wake` whenever work may be waiting; returns the unsubscribe. */
export type WakeSource = (wake: () => void) => () => void;

/**
 * What a pass found. `more`: work is still waiting, the next pass runs at once. Otherwise the
 * loop sleeps until woken, the safety poll, `sleepMs` (a retry this worker scheduled) or
 * `until` settling (a slot freed), whichever comes first.
 */
export type PassResult = { more: true } | { more: false; sleepMs?: number; until?: Promise<unknown> };

export const MORE: PassResult = { more: true };
export const IDLE: PassResult = { more: false };

export type PassContext = {
  /** Aborted once stop() was called: a long pass checks it between its steps and returns. */
  signal: AbortSignal;
  /** Which of the definition's loops runs the pass: 0 is the one that polls. */
  loop: number;
};

/** A loop's sleep; a test may give one that nothing else wakes (close ends a pause in progress). */
export type WorkerSleep = Pick<WakeableSleep, "epoch" | "pause"> & { close(): void; wake?(): void };

export type WorkerDefinition = {
  /** Names the worker in its log lines ("chatbot worker"). */
  name: string;
  /** What ends a sleep early: NOTIFY on a channel (`wakeupsOn("mail")`), an in-process signal. */
  wakeOn?: readonly WakeSource[];
  /** The safety poll: the longest sleep (work written while no one listened is found by it). */
  pollMs: number;
  pass: (context: PassContext) => Promise<PassResult>;
  /**
   * Loops sharing the wake-ups (default 1). Only the first polls; the others sleep until
   * woken, and a pass that finds more work wakes them to join in.
   */
  loops?: number;
  /** Called as a loop goes to sleep, with the epoch its pass started at (tests wait for it). */
  onPause?: (epoch: number) => void;
  /** Runs once stop() has seen the last pass end (flush what the passes left behind). */
  drain?: () => Promise<void>;
  /**
   * Replaces the sleep built from `wakeOn`: a test's sleep that only it wakes, or a worker's
   * own (the broadcast worker counts its loops asleep; without `wake`, a pass that finds more
   * work does not wake the others: it may do so itself).
   */
  sleep?: WorkerSleep;
};

export type Worker = { stop: () => Promise<void> };

// The longest timer Node keeps (a longer one fires at once): "until woken".
const UNTIL_WOKEN_MS = 2 ** 31 - 1;
/** An idle pass never runs the next one sooner than this (a retry due now cannot spin the loop). */
const MIN_SLEEP_MS = 5;
/** The first wait after a failed pass; it doubles with each failure in a row, up to the poll. */
export const ERROR_BACKOFF_MS = 250;

function sleepFrom(sources: readonly WakeSource[]): WorkerSleep {
  const sleep = wakeableSleep();
  const unsubscribes = sources.map((source) => source(sleep.wake));
  return {
    epoch: sleep.epoch,
    pause: sleep.pause,
    wake: sleep.wake,
    close: () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      sleep.wake();
    },
  };
}

export function startWorker(definition: WorkerDefinition): Worker {
  const { name, pollMs, pass } = definition;
  const sleep = definition.sleep ?? sleepFrom(definition.wakeOn ?? []);
  const stopping = new AbortController();
  // The error backoff ignores wake-ups (a failing pass is not retried on every NOTIFY); stop ends it.
  const backoffs = new Set<() => void>();
  const backoff = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        backoffs.delete(done);
        resolve();
      }
      backoffs.add(done);
    });

  const loop = async (index: number) => {
    const first = index === 0;
    let failures = 0;
    while (!stopping.signal.aborted) {
      const since = sleep.epoch();
      let result: PassResult;
      try {
        result = await pass({ signal: stopping.signal, loop: index });
        failures = 0;
      } catch (error) {
        failures += 1;
        const waitMs = Math.min(pollMs, ERROR_BACKOFF_MS * 2 ** (failures - 1));
        log.error({ err: error, worker: name, failures, retryInMs: waitMs }, `${name} failed; retrying`);
        if (stopping.signal.aborted) break;
        definition.onPause?.(since);
        await backoff(waitMs);
        continue;
      }
      if (stopping.signal.aborted) break;
      if (result.more) {
        // A backlog (perhaps found by the poll): the sleeping loops join in.
        if (first && (definition.loops ?? 1) > 1) sleep.wake?.();
        continue;
      }
      definition.onPause?.(since);
      const limit = first ? pollMs : UNTIL_WOKEN_MS;
      const ms = Math.max(MIN_SLEEP_MS, Math.min(limit, result.sleepMs ?? limit));
      const paused = sleep.pause(ms, since);
      await (result.until ? Promise.race([paused, result.until.catch(() => {})]) : paused);
    }
  };
  const loops = Array.from({ length: Math.max(1, definition.loops ?? 1) }, (_, index) => loop(index));

  return {
    stop: async () => {
      stopping.abort();
      sleep.close();
      for (const done of [...backoffs]) done();
      await Promise.all(loops);
      await definition.drain?.();
    },
  };
}
