// The shared billing count: fresh reuse, stale-while-revalidate, single flight, and
// recount when the cached value contradicts the page just read.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedCount, configureCountCache } from "./count-cache";

afterEach(() => {
  vi.useRealTimers();
  configureCountCache({ ttlMs: 5_000 });
});

describe("cachedCount", () => {
  it("counts once for concurrent callers and reuses a fresh value", async () => {
    configureCountCache({ ttlMs: 1_000, maxStaleMs: 10_000 });
    let calls = 0;
    let release = () => {};
    const counted = new Promise<void>((r) => {
      release = r;
    });
    const count = async () => {
      calls += 1;
      await counted; // held until every caller has asked
      return 42;
    };
    const pending = Array.from({ length: 10 }, () => cachedCount("k1", count));
    release();
    const values = await Promise.all(pending);
    expect(values).toEqual(Array(10).fill(42));
    expect(calls).toBe(1);
    expect(await cachedCount("k1", count)).toBe(42);
    expect(calls).toBe(1);
  });

  it("serves a stale value at once and refreshes it in the background", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    configureCountCache({ ttlMs: 1_000, maxStaleMs: 10_000 });
    let next = 1;
    const count = async () => next;
    expect(await cachedCount("k2", count)).toBe(1);
    next = 2;
    vi.setSystemTime(Date.now() + 2_000);
    expect(await cachedCount("k2", count)).toBe(1); // stale, refresh started
    await new Promise((r) => setImmediate(r));
    expect(await cachedCount("k2", count)).toBe(2);
    vi.setSystemTime(Date.now() + 20_000); // too old to serve: counted now
    next = 3;
    expect(await cachedCount("k2", count)).toBe(3);
  });

  it("recounts when the cached value is implausible, and every time with ttl 0", async () => {
    configureCountCache({ ttlMs: 60_000 });
    let next = 10;
    const count = async () => next;
    expect(await cachedCount("k3", count)).toBe(10);
    next = 12;
    expect(await cachedCount("k3", count, (n) => n >= 11)).toBe(12);
    configureCountCache({ ttlMs: 0 });
    let calls = 0;
    const counting = async () => ++calls;
    await cachedCount("k4", counting);
    await cachedCount("k4", counting);
    expect(calls).toBe(2);
  });
});
