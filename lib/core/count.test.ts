import { describe, expect, it } from "vitest";
import { countOf, formatCount, minutesOfWait } from "./count";

describe("countOf", () => {
  it("agrees with the count and groups thousands", () => {
    expect(countOf(1, "template")).toBe("1 template");
    expect(countOf(0, "template")).toBe("0 templates");
    expect(countOf(50_004, "message")).toBe("50,004 messages");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
    expect(countOf(1, "minute")).toBe("1 minute");
  });
});

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(50_004)).toBe("50,004");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });
});

describe("minutesOfWait", () => {
  it("rounds up to whole minutes and agrees", () => {
    expect(minutesOfWait(1)).toBe("1 minute");
    expect(minutesOfWait(60)).toBe("1 minute");
    expect(minutesOfWait(61)).toBe("2 minutes");
    expect(minutesOfWait(900)).toBe("15 minutes");
  });
});
