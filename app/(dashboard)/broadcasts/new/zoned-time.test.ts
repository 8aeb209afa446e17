// The schedule's conversion from a zone's wall clock to the stored UTC instant and back.
import { describe, expect, it } from "vitest";
import { utcToZoned, zonedToUtc } from "./zoned-time";

describe("zonedToUtc", () => {
  it("converts a wall time in winter and in summer (daylight saving)", () => {
    expect(zonedToUtc("2026-12-01", "09:00", "Europe/Paris")).toBe("2026-12-01T08:00:00.000Z");
    expect(zonedToUtc("2026-07-01", "09:00", "Europe/Paris")).toBe("2026-07-01T07:00:00.000Z");
    expect(zonedToUtc("2026-07-01", "09:00", "America/New_York")).toBe("2026-07-01T13:00:00.000Z");
    expect(zonedToUtc("2026-07-01", "09:00", "Asia/Kolkata")).toBe("2026-07-01T03:30:00.000Z");
    expect(zonedToUtc("2026-07-01", "09:00", "UTC")).toBe("2026-07-01T09:00:00.000Z");
  });

  it("puts a time skipped by a daylight-saving jump after the jump", () => {
    // 2026-03-29 02:30 does not exist in Paris (02:00 -> 03:00).
    expect(zonedToUtc("2026-03-29", "02:30", "Europe/Paris")).toBe("2026-03-29T01:30:00.000Z");
  });

  it("answers null for what is not a date, a time or a zone", () => {
    expect(zonedToUtc("", "09:00", "UTC")).toBeNull();
    expect(zonedToUtc("2026-12-01", "9am", "UTC")).toBeNull();
    expect(zonedToUtc("2026-12-01", "09:00", "Not/AZone")).toBeNull();
  });

  it("reads an instant back on the zone's wall clock", () => {
    expect(utcToZoned("2026-12-01T08:00:00.000Z", "Europe/Paris")).toBe("2026-12-01 09:00");
    expect(utcToZoned("2026-07-01T03:30:00.000Z", "Asia/Kolkata")).toBe("2026-07-01 09:00");
  });
});
