// Counting in a sliding window, as a provider may count a number's throughput
// (docs/api/limits.md "What the simulator enforces"): an event at time t is in the window at
// `now` while now - windowMs < t <= now, whatever the clock second. The simulator refuses a
// message that would make the count of any 1,000 ms exceed the number's throughput; the
// pacing check of bench:broadcast asks the same of a whole run (mostInAnyWindow).

/** The times of the events still in the window, oldest first (times must not go backwards). */
export class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(readonly windowMs = 1_000) {}

  /** How many events are in the window ending at `now` (older ones are dropped). */
  count(now: number): number {
    while (this.head < this.times.length && (this.times[this.head] ?? now) <= now - this.windowMs) this.head += 1;
    // Dropped times are cut off now and then, not on every call.
    if (this.head > 1_024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  add(at: number): void {
    this.times.push(at);
  }

  /** Milliseconds from `now` until the oldest event leaves the window (0 when it is empty). */
  msUntilOldestLeaves(now: number): number {
    this.count(now);
    const oldest = this.times[this.head];
    return oldest === undefined ? 0 : oldest + this.windowMs - now;
  }
}

/** The most events in any window of `windowMs` (in any order of `times`). */
export function mostInAnyWindow(times: readonly number[], windowMs = 1_000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while ((sorted[start] ?? 0) <= (sorted[end] ?? 0) - windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}
