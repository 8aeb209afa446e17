import { describe, expect, it } from "vitest";
import { lastDaysFrom, periodLabel, sendersLabel } from "./count-scope";

describe("count scope labels", () => {
  it("names the period a count covers", () => {
    expect(periodLabel()).toBe("all dates");
    expect(periodLabel("2026-10-25")).toBe("from 2026-10-25");
    expect(periodLabel(undefined, "2026-11-23")).toBe("until 2026-11-23");
    expect(periodLabel("2026-10-25", "2026-11-23")).toBe("2026-10-25 to 2026-11-23");
    expect(periodLabel("2026-11-23", "2026-11-23")).toBe("on 2026-11-23");
  });

  it("names the senders a count covers", () => {
    expect(sendersLabel(undefined)).toBe("all senders");
    expect(sendersLabel("+15550100001")).toBe("sender +15550100001");
  });

  it("starts the last 30 days 29 days before today", () => {
    expect(lastDaysFrom(30, new Date("2026-11-23T20:00:00Z"))).toBe("2026-10-25");
    expect(lastDaysFrom(1, new Date("2026-11-23T00:00:00Z"))).toBe("2026-11-23");
  });
});
