import { describe, expect, it, vi } from "vitest";
import { aggregateKey, sharedAggregate } from "./aggregate-cache";

describe("shared aggregates of the billing explorer", () => {
  it("computes once for concurrent callers, reuses while fresh, refreshes in the background when stale", async () => {
    const key = aggregateKey("t", `c-${Math.random()}`, undefined, { status: "read", page: 2 });
    let calls = 0;
    let release = () => {};
    const first = new Promise<void>((r) => {
      release = r;
    });
    const compute = async () => {
      calls += 1;
      await first; // the first computation is held until both callers have asked
      return calls;
    };
    const t0 = Date.now();
    const both = [sharedAggregate(key, compute, t0), sharedAggregate(key, compute, t0)];
    release();
    const [a, b] = await Promise.all(both);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    expect(await sharedAggregate(key, compute, t0 + 1_000)).toBe(1);
    expect(calls).toBe(1);
    // Stale: the old value now, one refresh behind it.
    expect(await sharedAggregate(key, compute, t0 + 10_000)).toBe(1);
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(await sharedAggregate(key, compute)).toBe(2);
    // Too old: computed again before answering.
    expect(await sharedAggregate(key, compute, Date.now() + 120_000)).toBe(3);
  });

  it("keys ignore paging and sort but not filters, sender or customer", () => {
    const k = (f: object, s?: string, c = "c1") => aggregateKey("totals", c, s, f);
    expect(k({ status: "read", page: 1, sortBy: "rate" })).toBe(k({ status: "read", page: 9, sortOrder: "ASC" }));
    expect(k({ status: "read" })).not.toBe(k({ status: "sent" }));
    expect(k({}, "s1")).not.toBe(k({}, "s2"));
    expect(k({}, undefined, "c1")).not.toBe(k({}, undefined, "c2"));
  });
});
