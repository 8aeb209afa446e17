// The worker primitive (lib/core/worker-loop.ts) on a fake clock: a wake-up during a pass is
// not lost, stop waits for the pass, an error does not kill the loop, and an idle worker
// runs nothing between wake-ups but its safety poll.
import { afterEach, describe, expect, it, vi } from "vitest";
import { IDLE, MORE, type PassResult, startWorker, type WakeSource } from "./worker-loop";

afterEach(() => {
  vi.useRealTimers();
});

/** A wake source a test fires by hand, as NOTIFY would. */
function manualSource() {
  const listeners = new Set<() => void>();
  const source: WakeSource = (wake) => {
    listeners.add(wake);
    return () => listeners.delete(wake);
  };
  return {
    source,
    fire: () => {
      for (const wake of listeners) wake();
    },
    listeners,
  };
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const HOUR = 3_600_000;

describe("startWorker", () => {
  it("runs a pass at start, then nothing until woken or the safety poll", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    let passes = 0;
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      pass: async () => {
        passes += 1;
        return IDLE;
      },
    });
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(passes).toBe(1);
    expect(vi.getTimerCount()).toBe(1); // the safety poll, nothing else
    wakeups.fire();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(2);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(passes).toBe(3);
    await worker.stop();
    expect(wakeups.listeners.size).toBe(0);
  });

  it("does not lose a wake-up that came during a pass", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    const inPass = deferred();
    let passes = 0;
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      pass: async () => {
        passes += 1;
        if (passes === 1) await inPass.promise;
        return IDLE;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    wakeups.fire(); // while the first pass is busy (its read may have missed the new work)
    inPass.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(2); // at once, not after the hour's poll
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(passes).toBe(2); // and that pass saw the work: the next sleep is a full one
    await worker.stop();
  });

  it("runs the next pass at once while a pass finds more", async () => {
    vi.useFakeTimers();
    const results: PassResult[] = [MORE, MORE, IDLE];
    let passes = 0;
    const worker = startWorker({
      name: "test worker",
      pollMs: HOUR,
      pass: async () => results[passes++] ?? IDLE,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(3);
    await worker.stop();
  });

  it("sleeps no longer than a pass asks, nor past the promise it gives", async () => {
    vi.useFakeTimers();
    const slot = deferred();
    const results: PassResult[] = [
      { more: false, sleepMs: 1_000 },
      { more: false, until: slot.promise },
    ];
    let passes = 0;
    const worker = startWorker({ name: "test worker", pollMs: HOUR, pass: async () => results[passes++] ?? IDLE });
    await vi.advanceTimersByTimeAsync(999);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(2);
    slot.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(3);
    await worker.stop();
  });

  it("stop() ends the sleep, waits for the pass in progress, then drains; no pass follows", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    const inPass = deferred();
    const order: string[] = [];
    let passes = 0;
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      pass: async ({ signal }) => {
        passes += 1;
        if (passes === 2) await inPass.promise;
        order.push(`pass ${passes}${signal.aborted ? " (stopping)" : ""}`);
        return MORE;
      },
      drain: async () => {
        order.push("drain");
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    inPass.resolve();
    await stopping;
    expect(order).toEqual(["pass 1", "pass 2 (stopping)", "drain"]);
    wakeups.fire();
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(passes).toBe(2);
  });

  it("keeps running after a pass throws, backing off (doubling) without heeding wake-ups", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    let passes = 0;
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      pass: async () => {
        passes += 1;
        if (passes <= 2) throw new Error("the database is away");
        return IDLE;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    wakeups.fire(); // a NOTIFY does not cut the backoff short
    await vi.advanceTimersByTimeAsync(249);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(passes).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(3); // it works again: back to sleeping until woken
    wakeups.fire();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(4);
    await worker.stop();
  });

  it("stop() ends an error backoff at once", async () => {
    vi.useFakeTimers();
    const worker = startWorker({
      name: "test worker",
      pollMs: HOUR,
      pass: async () => {
        throw new Error("always");
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    await worker.stop(); // resolves without the clock moving
  });

  it("extra loops sleep until woken, and join in when the first finds a backlog", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    const running = new Set<number>();
    let most = 0;
    let backlog = 3;
    let passes = 0;
    const gate = deferred();
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      loops: 3,
      pass: async () => {
        const id = ++passes;
        running.add(id);
        most = Math.max(most, running.size);
        await gate.promise;
        running.delete(id);
        return backlog-- > 0 ? MORE : IDLE;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(running.size).toBe(3); // each loop's first pass
    gate.resolve();
    await vi.advanceTimersByTimeAsync(0);
    const settled = passes;
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(passes).toBe(settled); // no loop polls but the first, an hour on
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(settled + 1);
    expect(most).toBe(3);
    await worker.stop();
  });

  it("tells each pass which loop runs it (0: the one that polls)", async () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const worker = startWorker({
      name: "test worker",
      pollMs: HOUR,
      loops: 3,
      pass: async ({ loop }) => {
        seen.push(loop);
        return IDLE;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.sort()).toEqual([0, 1, 2]);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(seen.slice(3)).toEqual([0]); // only the first loop polls
    await worker.stop();
  });

  it("tells onPause the epoch its pass started at", async () => {
    vi.useFakeTimers();
    const wakeups = manualSource();
    const epochs: number[] = [];
    const worker = startWorker({
      name: "test worker",
      wakeOn: [wakeups.source],
      pollMs: HOUR,
      pass: async () => IDLE,
      onPause: (epoch) => epochs.push(epoch),
    });
    await vi.advanceTimersByTimeAsync(0);
    wakeups.fire();
    await vi.advanceTimersByTimeAsync(0);
    expect(epochs).toEqual([0, 1]);
    await worker.stop();
  });
});
