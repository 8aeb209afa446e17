import { afterEach, describe, expect, it, vi } from "vitest";
import { wakeableSleep } from "./wakeable-sleep";

afterEach(() => {
  vi.useRealTimers();
});

/** Whether `p` settled by the time the fake clock reached `ms` after now. */
async function settledWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe("wakeableSleep", () => {
  it("sleeps the whole pause when no one wakes it", async () => {
    vi.useFakeTimers();
    const sleep = wakeableSleep();
    const p = sleep.pause(60_000, sleep.epoch());
    expect(await settledWithin(p, 59_999)).toBe(false);
    expect(await settledWithin(p, 1)).toBe(true);
  });

  it("a wake-up ends every pause in progress", async () => {
    vi.useFakeTimers();
    const sleep = wakeableSleep();
    const a = sleep.pause(60_000, sleep.epoch());
    const b = sleep.pause(60_000, sleep.epoch());
    sleep.wake();
    expect(await settledWithin(a, 0)).toBe(true);
    expect(await settledWithin(b, 0)).toBe(true);
  });

  it("a wake-up during a pass is not lost: the pause after the pass returns at once", async () => {
    vi.useFakeTimers();
    const sleep = wakeableSleep();
    const since = sleep.epoch(); // the pass starts reading
    sleep.wake(); // a write commits and notifies while the pass runs
    expect(await settledWithin(sleep.pause(60_000, since), 0)).toBe(true);
    // The next pass saw that write: its pause sleeps again.
    const next = sleep.pause(60_000, sleep.epoch());
    expect(await settledWithin(next, 30_000)).toBe(false);
  });

  it("a wake-up taken by an abandoned pause still ends the loop's next pause", async () => {
    vi.useFakeTimers();
    const sleep = wakeableSleep();
    const since = sleep.epoch();
    void sleep.pause(1_000, since); // lost a race against another promise; no one awaits it
    sleep.wake();
    expect(await settledWithin(sleep.pause(60_000, since), 0)).toBe(true);
  });
});
