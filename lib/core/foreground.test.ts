import { afterEach, describe, expect, it, vi } from "vitest";
import { foreground, foregroundIdle } from "./foreground";

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

describe("foreground work", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets waiting work go at once when nothing runs in the foreground", async () => {
    vi.useFakeTimers();
    expect(await settled(foregroundIdle(1_000, 0))).toBe(true);
  });

  it("holds waiting work until the last of two overlapping foreground passes ends", async () => {
    vi.useFakeTimers();
    let endFirst = () => {};
    let endSecond = () => {};
    const first = foreground(() => new Promise<void>((r) => (endFirst = r)));
    const second = foreground(() => new Promise<void>((r) => (endSecond = r)));
    const waiting = foregroundIdle(10_000, 0);
    expect(await settled(waiting)).toBe(false);
    endFirst();
    await first;
    expect(await settled(waiting)).toBe(false);
    endSecond();
    await second;
    expect(await settled(waiting)).toBe(true);
  });

  it("lets waiting work go after its longest wait when the foreground never pauses", async () => {
    vi.useFakeTimers();
    let end = () => {};
    const pass = foreground(() => new Promise<void>((r) => (end = r)));
    const waiting = foregroundIdle(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    end();
    await pass;
  });

  /** A pass of `ms` under fake timers. */
  const passOf = async (ms: number) => {
    const pass = foreground(() => new Promise<void>((r) => setTimeout(r, ms)));
    await vi.advanceTimersByTimeAsync(ms);
    await pass;
  };

  it("while saturated (busy half the last second), waits for a quiet period after the last pass: a pass ending meanwhile starts it again", async () => {
    vi.useFakeTimers();
    await passOf(600);
    const waiting = foregroundIdle(10_000, 250);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    await passOf(0); // a pass at 100 ms: quiet from then on
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    await expect(waiting).resolves.toBe(true);
    // Quiet long enough already: at once.
    expect(await settled(foregroundIdle(10_000, 250))).toBe(true);
  });

  it("under lighter traffic (short passes, most of the second free), waits only for the pass running now", async () => {
    vi.useFakeTimers();
    await vi.advanceTimersByTimeAsync(2_000); // nothing busy in the last second
    for (let i = 0; i < 10; i++) {
      await passOf(20);
      await vi.advanceTimersByTimeAsync(30);
    }
    // 20 ms of every 50: 40% busy. Right after a pass, the waiting work goes at once.
    await passOf(20);
    expect(await settled(foregroundIdle(10_000, 250))).toBe(true);
    // And while one runs, as soon as it ends.
    let end = () => {};
    const pass = foreground(() => new Promise<void>((r) => (end = r)));
    const waiting = foregroundIdle(10_000, 250);
    expect(await settled(waiting)).toBe(false);
    end();
    await pass;
    expect(await settled(waiting)).toBe(true);
  });

  it("says whether the foreground was idle (true) or the wait ran out with it still running (false)", async () => {
    vi.useFakeTimers();
    await expect(foregroundIdle(1_000, 0)).resolves.toBe(true);
    let end = () => {};
    const pass = foreground(() => new Promise<void>((r) => (end = r)));
    const outOfTime = foregroundIdle(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outOfTime).resolves.toBe(false);
    const ended = foregroundIdle(1_000, 0);
    end();
    await pass;
    await expect(ended).resolves.toBe(true);
  });

  it("ends its pass when the work throws, and returns what the work returns", async () => {
    await expect(foreground(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await foreground(async () => 7)).toBe(7);
    await foregroundIdle(1_000, 0); // nothing left running: resolves at once
  });
});
