import { describe, expect, it } from "vitest";
import { formatRate } from "./format";

describe("billing record rate", () => {
  it("says Free for a free record, whatever list rate it carries", () => {
    expect(formatRate({ rate: 0.025, billingClass: "free" }, "USD")).toBe("Free");
    expect(formatRate({ rate: 0, billingClass: "free" }, "USD")).toBe("Free");
  });

  it("shows the price of a payable record as money, exact (lib/core/money.ts)", () => {
    expect(formatRate({ rate: 0.025, billingClass: "payable" }, "USD")).toBe("USD 0.025");
    expect(formatRate({ rate: 0.0147, billingClass: "payable" }, "USD")).toBe("USD 0.0147");
    expect(formatRate({ rate: 0, billingClass: "payable" }, "USD")).toBe("USD 0.00");
  });
});
