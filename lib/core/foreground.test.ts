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
    expect(await settled(foregroundIdle(1_000))).toBe(true);
  });

  it("holds waiting work until the last of two overlapping foreground passes ends", async () => {
    vi.useFakeTimers();
    let endFirst = () => {};
    let endSecond = () => {};
    const first = foreground(() => new Promise<void>((r) => (endFirst = r)));
    const second = foreground(() => new Promise<void>((r) => (endSecond = r)));
    const waiting = foregroundIdle(10_000);
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

  it("says whether the foreground was idle (true) or the wait ran out with it still running (false)", async () => {
    vi.useFakeTimers();
    await expect(foregroundIdle(1_000)).resolves.toBe(true);
    let end = () => {};
    const pass = foreground(() => new Promise<void>((r) => (end = r)));
    const outOfTime = foregroundIdle(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outOfTime).resolves.toBe(false);
    const ended = foregroundIdle(1_000);
    end();
    await pass;
    await expect(ended).resolves.toBe(true);
  });

  it("ends its pass when the work throws, and returns what the work returns", async () => {
    await expect(foreground(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await foreground(async () => 7)).toBe(7);
    await foregroundIdle(1_000); // nothing left running: resolves at once
  });
});
