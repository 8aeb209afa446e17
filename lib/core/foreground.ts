// Work that goes first in a process (docs/automation.md "Where rules run"): the callback
// processor's passes. Work that can wait (the automation rules' jobs) asks `foregroundIdle()`
// before each step and starts it only when no foreground pass is running in this process, so
// during a burst of callbacks they have most of the cores, and the rules catch up in the gaps
// and after the burst. A wait is bounded (`maxWaitMs`): under a load that never leaves a gap
// the waiting work still moves, a step at a time (a wait that runs out says so: false).
let running = 0;
let waiters: (() => void)[] = [];

/** Runs `work` as foreground: while it runs, foregroundIdle() waits. */
export async function foreground<T>(work: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    if (running === 0) {
      const ready = waiters;
      waiters = [];
      for (const go of ready) go();
    }
  }
}

/**
 * Resolves true at once when no foreground work runs, or when the last ends; false after
 * `maxWaitMs` with foreground work still running (the waiting work then takes one step only).
 */
export function foregroundIdle(maxWaitMs: number): Promise<boolean> {
  if (running === 0) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const go = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== go);
      resolve(false);
    }, maxWaitMs);
    waiters.push(go);
  });
}
