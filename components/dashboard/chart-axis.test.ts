import { describe, expect, it } from "vitest";
import { axisTicks, tickLabel } from "./chart-axis";

const labels = (max: number, integer = false) => {
  const axis = axisTicks(max, { integer });
  return axis.ticks.map((t) => tickLabel(t, axis));
};

describe("chart axis", () => {
  it("gives all-zero data one tick, 0, not 0.00/0.00/0.00", () => {
    expect(axisTicks(0)).toEqual({ ticks: [0], top: 1, decimals: 0, allZero: true });
    expect(labels(0)).toEqual(["0"]);
    expect(axisTicks(Number.NaN).allZero).toBe(true);
  });

  it("rounds to 1, 2 or 5 steps and covers the largest value", () => {
    expect(labels(37.2)).toEqual(["0", "20", "40"]);
    expect(labels(100)).toEqual(["0", "50", "100"]);
    expect(labels(3)).toEqual(["0", "2", "4"]);
    for (const max of [0.0004, 0.013, 1.7, 9, 420, 123_456]) {
      const axis = axisTicks(max);
      expect(axis.top).toBeGreaterThanOrEqual(max);
      expect(axis.ticks[0]).toBe(0);
    }
  });

  it("uses enough decimals that small values never all read the same", () => {
    expect(labels(0.0004)).toEqual(["0.0000", "0.0002", "0.0004"]);
    expect(labels(0.013)).toEqual(["0.00", "0.01", "0.02"]);
    expect(labels(0.3)).toEqual(["0.0", "0.2", "0.4"]);
    for (const max of [0.0004, 0.013, 0.3, 1.7, 9, 420]) {
      const l = labels(max);
      expect(new Set(l).size).toBe(l.length);
    }
  });

  it("never steps below 1 for counts", () => {
    expect(labels(1, true)).toEqual(["0", "1"]);
    expect(labels(2, true)).toEqual(["0", "1", "2"]);
  });
});
