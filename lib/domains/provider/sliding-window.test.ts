// Sliding-window counting (pure logic): what the simulator's throughput and the pacing check
// of bench:broadcast count. An event is in the window at `now` while now - 1000 < t <= now.
import { describe, expect, it } from "vitest";
import { mostInAnyWindow, SlidingWindow } from "./sliding-window";

describe("SlidingWindow", () => {
  it("counts the events of the last 1,000 ms, across a clock second's boundary", () => {
    const w = new SlidingWindow(1_000);
    for (const at of [10_900, 10_950, 10_999, 11_000, 11_050]) w.add(at);
    // A fixed clock second would see 3 in second 10 and 2 in second 11; the window sees all 5.
    expect(w.count(11_050)).toBe(5);
    expect(w.count(11_899)).toBe(5);
    expect(w.count(11_900)).toBe(4); // 10,900 left at exactly 1,000 ms
    expect(w.count(12_050)).toBe(0);
  });

  it("says when the oldest event leaves the window", () => {
    const w = new SlidingWindow(1_000);
    expect(w.msUntilOldestLeaves(5_000)).toBe(0);
    w.add(5_000);
    w.add(5_400);
    expect(w.msUntilOldestLeaves(5_600)).toBe(400);
    expect(w.msUntilOldestLeaves(6_100)).toBe(300); // 5,000 has left; 5,400 is the oldest
  });

  it("keeps counting right after many events have left", () => {
    const w = new SlidingWindow(1_000);
    for (let at = 0; at < 10_000; at += 2) {
      w.add(at);
      expect(w.count(at)).toBe(Math.min(at / 2 + 1, 500));
    }
  });
});

describe("mostInAnyWindow", () => {
  it("finds the busiest 1,000 ms wherever it starts", () => {
    expect(mostInAnyWindow([])).toBe(0);
    // 80 late in one second and 80 early in the next: 80 per clock second, 160 in one window.
    const late = Array.from({ length: 80 }, (_, i) => 900 + i);
    const early = Array.from({ length: 80 }, (_, i) => 1_000 + i);
    expect(mostInAnyWindow([...early, ...late])).toBe(160);
    // Evenly paced at 80/s: never more than 80 in any window.
    expect(mostInAnyWindow(Array.from({ length: 800 }, (_, i) => i * 12.5))).toBe(80);
  });

  it("counts an event exactly 1,000 ms after another in a window of its own", () => {
    expect(mostInAnyWindow([0, 1_000])).toBe(1);
    expect(mostInAnyWindow([0, 999])).toBe(2);
  });
});
