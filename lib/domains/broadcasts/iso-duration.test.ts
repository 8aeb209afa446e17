// isoDurationDays: the upper bound in days that caps a segment's lastInboundWithin.
import { describe, expect, it } from "vitest";
import { isoDurationDays, LAST_INBOUND_MAX_DAYS } from "./segment-schemas";

describe("isoDurationDays", () => {
  it("reads each unit, a year as 366 days and a month as 31", () => {
    expect(isoDurationDays("P30D")).toBe(30);
    expect(isoDurationDays("P2W")).toBe(14);
    expect(isoDurationDays("P1Y2M3DT12H")).toBe(366 + 62 + 3 + 0.5);
    expect(isoDurationDays("PT36H30M")).toBeCloseTo(1.5 + 30 / 1440);
    expect(isoDurationDays("P10Y")).toBe(LAST_INBOUND_MAX_DAYS);
  });
});
