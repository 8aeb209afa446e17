// Work that goes first in a process (docs/automation.md "Where rules run"): the callback
// processor's passes. Work that can wait (the automation rules' jobs) asks `foregroundIdle()`
// before each step. While the processor is saturated (busy for half of the last second or
// more: a burst of callbacks), the step waits until it has been quiet for a while (no pass
// running, none ended in the last `quietMs`): the passes of a burst follow each other with
// short gaps, and a rule job started in such a gap delayed the next pass (docs/benchmarks.md
// "The next limits"). Otherwise (steady, lighter traffic, whose passes also follow each other
// but leave most of the time free) it waits only for the pass running now, so the rules keep
// up. A wait is bounded (`maxWaitMs`): under a load that never goes quiet the waiting work
// still moves, a step at a time (a wait that runs out says so: false).
let running = 0;
/** When the current passes began, and the ends of those of the last second (performance.now(): monotonic). */
let busySince = 0;
let recent: { start: number; end: number }[] = [];
/** When the last foreground pass ended. */
let lastEnd = Number.NEGATIVE_INFINITY;
let waiters: (() => void)[] = [];

/** How long the foreground must have been quiet before waiting work starts while it is saturated. */
export const QUIET_MS = 250;
/** Saturated: busy for at least this share of the last second. */
export const SATURATED_SHARE = 0.5;
const WINDOW_MS = 1_000;

/** The share of the last second the foreground was busy (overlapping passes count once). */
function busyShare(now: number): number {
  const from = now - WINDOW_MS;
  recent = recent.filter((r) => r.end > from);
  let busy = running > 0 ? now - Math.max(busySince, from) : 0;
  for (const r of recent) busy += r.end - Math.max(r.start, from);
  return busy / WINDOW_MS;
}

/** Runs `work` as foreground: while it runs (and, while saturated, for a quiet period after) foregroundIdle() waits. */
export async function foreground<T>(work: () => Promise<T>): Promise<T> {
  if (running === 0) busySince = performance.now();
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    if (running === 0) {
      lastEnd = performance.now();
      recent = recent.filter((r) => r.end > lastEnd - WINDOW_MS);
      recent.push({ start: busySince, end: lastEnd });
      const ready = waiters;
      waiters = [];
      for (const go of ready) go();
    }
  }
}

/**
 * Resolves true once no foreground work runs and, if the foreground is saturated, none has
 * ended for `quietMs` (at once when that holds already); false after `maxWaitMs` without (the
 * waiting work then takes one step only).
 */
export async function foregroundIdle(maxWaitMs: number, quietMs = QUIET_MS): Promise<boolean> {
  const until = performance.now() + maxWaitMs;
  for (;;) {
    const now = performance.now();
    const quietFor = running === 0 ? Math.max(0, now - lastEnd) : 0;
    if (running === 0 && (quietFor >= quietMs || busyShare(now) < SATURATED_SHARE)) return true;
    const left = until - now;
    if (left <= 0) return false;
    // Until the quiet period would be over, or, while passes run, until the last of them ends.
    await new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          waiters = waiters.filter((w) => w !== go);
          resolve();
        },
        Math.ceil(running === 0 ? Math.min(left, quietMs - quietFor) : left),
      );
      if (running > 0) waiters.push(go);
    });
  }
}
