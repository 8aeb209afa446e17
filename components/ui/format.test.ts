import { describe, expect, it } from "vitest";
import { countOf, formatRate } from "./format";

describe("billing record rate", () => {
  it("says Free for a free record, whatever list rate it carries", () => {
    expect(formatRate({ rate: 0.025, billingClass: "free" })).toBe("Free");
    expect(formatRate({ rate: 0, billingClass: "free" })).toBe("Free");
  });

  it("shows the price of a payable record with 4 decimals", () => {
    expect(formatRate({ rate: 0.025, billingClass: "payable" })).toBe("0.0250");
    expect(formatRate({ rate: 0, billingClass: "payable" })).toBe("0.0000");
  });
});

describe("countOf", () => {
  it("agrees with the count and groups thousands", () => {
    expect(countOf(1, "template")).toBe("1 template");
    expect(countOf(0, "template")).toBe("0 templates");
    expect(countOf(50_004, "message")).toBe("50,004 messages");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });
});
