// The pure rules of the per-sender pacer (pacing.ts): slots spaced evenly from the timeline's
// next free slot, never further ahead than AHEAD_MS, so takes made at any moments by any
// number of callers never put more than the throughput into any 1,000 ms (a sliding second,
// as the provider counts); a floor (a store taking over, a Retry-After) moves the first slot.
import { describe, expect, it } from "vitest";
import { mostInAnyWindow } from "@/lib/domains/provider/sliding-window";
import { AHEAD_MS, BROADCAST_SHARE, countOther, LocalWindows, reserve, SPACING_MARGIN, spacingMs } from "./pacing";

const slotsOf = (r: { granted: number; firstAt: number; spacingMs: number }) =>
  Array.from({ length: r.granted }, (_, i) => r.firstAt + i * r.spacingMs);

describe("reserve", () => {
  it("spaces a take's slots evenly from now and reserves no further ahead than AHEAD_MS", () => {
    const sp = spacingMs(80);
    expect(sp).toBeCloseTo((1000 * (1 + SPACING_MARGIN)) / 80);
    const r = reserve(0, 10_000, 500, sp);
    expect(r.firstAt).toBe(10_000);
    expect(r.granted).toBe(Math.ceil(AHEAD_MS / sp));
    expect(mostInAnyWindow(slotsOf(r))).toBeLessThanOrEqual(80);
    expect(r.nextAt).toBeCloseTo(10_000 + r.granted * sp);
    // Nothing left before now + AHEAD_MS: none, and when to ask again.
    const none = reserve(r.nextAt, 10_000, 10, sp);
    expect(none.granted).toBe(0);
    expect(none.nextAt).toBe(r.nextAt);
    expect(none.retryAt).toBeGreaterThan(10_000);
    expect(reserve(r.nextAt, none.retryAt, 10, sp).granted).toBeGreaterThan(0);
  });

  it("takes at random moments by many callers never put more than the throughput into any 1,000 ms", () => {
    for (const perSecond of [3, 80, 1000]) {
      const sp = spacingMs(perSecond);
      let nextAt = 0;
      let now = 1_000_000;
      const calls: number[] = [];
      while (now < 1_010_000) {
        now += Math.random() * 300;
        const r = reserve(nextAt, now, 1 + Math.floor(Math.random() * perSecond), sp);
        nextAt = r.nextAt;
        calls.push(...slotsOf(r));
      }
      expect(mostInAnyWindow(calls)).toBeLessThanOrEqual(perSecond);
      // Kept busy, the pace is the throughput less the margin: within 5%.
      const rate = ((calls.length - 1) * 1000) / ((calls.at(-1) ?? 0) - (calls[0] ?? 0));
      expect(Math.abs(rate - perSecond)).toBeLessThanOrEqual(perSecond * 0.05);
    }
  });

  it("a call up to the margin late still leaves the throughput's calls a full window apart", () => {
    const sp = spacingMs(80);
    const r = reserve(0, 0, 1000, sp);
    const late = reserve(r.nextAt, r.nextAt - AHEAD_MS, 1000, sp);
    const calls = [...slotsOf(r), ...slotsOf(late)].map((t, i) => (i === 0 ? t + 1000 * SPACING_MARGIN - 1 : t));
    expect(mostInAnyWindow(calls)).toBeLessThanOrEqual(80);
  });

  it("a floor moves the first slot and stays in the timeline even when nothing is granted", () => {
    const sp = spacingMs(80);
    const r = reserve(0, 5_000, 80, sp, 7_000);
    expect(r.granted).toBe(0);
    expect(r.nextAt).toBe(7_000);
    const later = reserve(r.nextAt, 6_500, 500, sp);
    expect(later.firstAt).toBe(7_000);
    expect(later.granted).toBe(Math.ceil((6_500 + AHEAD_MS - 7_000) / sp));
  });

  it("another send takes a slot at once; a broadcast's share spaces its slots wider", () => {
    const sp = spacingMs(10);
    expect(countOther(0, 1_000, sp)).toBe(1_000 + sp);
    expect(countOther(5_000, 1_000, sp)).toBe(5_000 + sp);
    expect(spacingMs(10, BROADCAST_SHARE)).toBeCloseTo(sp / BROADCAST_SHARE);
  });
});

describe("the process's own window", () => {
  it("holds a call that would make the last 1,000 ms (and 2% for the way to the provider) hold more than the limit, until the oldest leaves", () => {
    const w = new LocalWindows();
    expect(w.waitMs("s", 2, 0)).toBe(0);
    w.record("s", 100);
    w.record("s", 400);
    expect(w.waitMs("s", 2, 500)).toBe(620);
    expect(w.waitMs("s", 3, 500)).toBe(0);
    expect(w.waitMs("other", 2, 500)).toBe(0);
    // Exactly 1,000 ms after the oldest is not enough: a few ms more on its way would put both in one provider second.
    expect(w.waitMs("s", 2, 1_100)).toBe(20);
    expect(w.waitMs("s", 2, 1_120)).toBe(0);
  });
});
