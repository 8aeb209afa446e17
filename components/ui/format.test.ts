import { describe, expect, it } from "vitest";
import { formatRate } from "./format";

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
