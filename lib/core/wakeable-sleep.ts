// A background loop's sleep that a wake-up ends early, without lost wake-ups
// (docs/architecture.md "Background work"). A loop notes the epoch before a pass reads
// the database and hands it to `pause`: a wake-up that came during the pass (its write
// may have committed after the pass read) makes the pause return at once instead of
// waiting for the safety poll; one that came before the pass began is already covered.
export type WakeableSleep = {
  /** The count of wake-ups so far: note it before a pass reads. */
  epoch(): number;
  /** Sleeps `ms`, or less when woken; returns at once if woken since `since`. */
  pause(ms: number, since?: number): Promise<void>;
  /** Ends every pause in progress; later pauses given an older epoch return at once. */
  wake(): void;
};

export function wakeableSleep(): WakeableSleep {
  let wakes = 0;
  const sleepers = new Set<() => void>();
  return {
    epoch: () => wakes,
    pause: (ms, since) => {
      if (since !== undefined && wakes !== since) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          sleepers.delete(done);
          resolve();
        }
        sleepers.add(done);
      });
    },
    wake: () => {
      wakes += 1;
      for (const done of [...sleepers]) done();
    },
  };
}
