// The callback processor's loops: an idle processor polls once per interval (only its first
// loop polls), a wake-up or a backlog brings every loop in (docs/benchmarks.md "Idle CPU").
import { afterEach, describe, expect, it, vi } from "vitest";

const batches = vi.hoisted(() => ({ sizes: [] as number[], calls: 0, hold: null as Promise<void> | null }));
const stored = vi.hoisted(() => ({ wake: () => {} }));
vi.mock("./process-batch", () => ({
  processPendingCallbacks: async () => {
    batches.calls += 1;
    if (batches.hold) await batches.hold;
    return { callbacks: batches.sizes.shift() ?? 0, events: 0, failed: 0 };
  },
}));
// A stored callback wakes the processor through its NOTIFY (lib/domains/provider/callbacks/accept.ts).
vi.mock("@/lib/db/wakeups", () => ({
  wakeupsOn: (channel: string) => (wake: () => void) => {
    if (channel === "callbacks") stored.wake = wake;
    return () => {};
  },
}));

const { callbackProcessor, startCallbackProcessor } = await import("./processor");
const { foregroundIdle } = await import("@/lib/core/foreground");

/** Lets the loops' promise chains run between timer steps. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("callback processor loops", () => {
  afterEach(() => {
    vi.useRealTimers();
    batches.sizes = [];
    batches.calls = 0;
  });

  it("polls once per interval when idle, however many loops it runs", async () => {
    vi.useFakeTimers();
    const processor = startCallbackProcessor({ pollMs: 1_000, loops: 3 });
    await settle();
    expect(batches.calls).toBe(3); // every loop's first pass
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      await settle();
    }
    expect(batches.calls).toBe(3 + 5);
    const stopping = processor.stop();
    await vi.runOnlyPendingTimersAsync();
    await stopping;
  });

  it("a stored callback wakes every loop; a full batch found by the poll brings the others in", async () => {
    vi.useFakeTimers();
    const processor = startCallbackProcessor({ pollMs: 1_000, loops: 2, batchSize: 10 });
    await settle();
    expect(batches.calls).toBe(2);
    stored.wake();
    await settle();
    expect(batches.calls).toBe(4);
    // The next poll finds a backlog: the first loop goes on and wakes the second.
    batches.sizes = [10, 10, 3];
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    // poll (10) -> woken second loop and the first loop's next pass (10, 3) -> their next passes (0, 0)
    expect(batches.calls).toBeGreaterThanOrEqual(4 + 4);
    expect(batches.sizes).toEqual([]);
    const stopping = processor.stop();
    await vi.runOnlyPendingTimersAsync();
    await stopping;
  });

  it("a pass is foreground work: the automation rules wait until it ends (lib/core/foreground.ts)", async () => {
    let release = () => {};
    batches.hold = new Promise<void>((r) => (release = r));
    const pass = callbackProcessor().pass({ signal: new AbortController().signal, loop: 0 });
    let rulesMayGo = false;
    const waiting = foregroundIdle(60_000, 0).then(() => {
      rulesMayGo = true;
    });
    await settle();
    expect(rulesMayGo).toBe(false);
    release();
    await pass;
    await waiting;
    expect(rulesMayGo).toBe(true);
    batches.hold = null;
  });
});
