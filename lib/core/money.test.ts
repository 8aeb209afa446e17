import { describe, expect, it } from "vitest";
import { formatMoney, minorUnits } from "./money";

describe("formatMoney", () => {
  it("says every amount one way: the code, then the figure in the currency's minor units", () => {
    // The four ways of the new customer's tour, now one.
    expect(formatMoney(247.125, "USD")).toBe("USD 247.13");
    expect(formatMoney(310, "USD")).toBe("USD 310.00");
    expect(formatMoney("310.0000", "USD")).toBe("USD 310.00");
    expect(formatMoney(235.3, "USD")).toBe("USD 235.30");
    expect(formatMoney(1_234_567.5, "USD")).toBe("USD 1,234,567.50");
    expect(formatMoney(-5, "USD")).toBe("-USD 5.00");
    expect(formatMoney({ toString: () => "10.000000" }, "usd")).toBe("USD 10.00");
  });

  it("uses Intl's minor units of each currency", () => {
    expect(minorUnits("USD")).toBe(2);
    expect(minorUnits("JPY")).toBe(0);
    expect(minorUnits("KWD")).toBe(3);
    expect(formatMoney(1500.4, "JPY")).toBe("JPY 1,500");
    expect(formatMoney(1.2345, "KWD")).toBe("KWD 1.235");
    expect(formatMoney(12, "EUR")).toBe("EUR 12.00");
  });

  it("keeps a message's price exact: at least the minor units, every stored digit", () => {
    expect(formatMoney(0.0147, "USD", "exact")).toBe("USD 0.0147");
    expect(formatMoney(0.025, "USD", "exact")).toBe("USD 0.025");
    expect(formatMoney(10, "USD", "exact")).toBe("USD 10.00");
    expect(formatMoney(0.000001, "USD", "exact")).toBe("USD 0.000001");
  });

  it("uses a plain space, never a no-break space", () => {
    expect(formatMoney(1, "USD")).not.toMatch(/\u00a0/);
  });
});
