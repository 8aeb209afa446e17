import { describe, expect, it } from "vitest";
import { seriesColor } from "./series-colors";

describe("series colours", () => {
  it("gives each pricing category its own fixed colour", () => {
    const categories = ["marketing", "utility", "authentication", "service", "marketing_lite", "uncategorised"];
    const colors = categories.map(seriesColor);
    expect(new Set(colors).size).toBe(categories.length);
    expect(seriesColor("utility")).toBe("#0f766e");
  });

  it("depends on the key only, not on which other series a view holds", () => {
    // What the old index-based palette got wrong: filtering marketing out recoloured utility.
    const all = ["authentication", "marketing", "utility"].map(seriesColor);
    const filtered = ["authentication", "utility"].map(seriesColor);
    expect(filtered).toEqual([all[0], all[2]]);
  });

  it("picks a stable palette colour for an unknown key", () => {
    expect(seriesColor("some_new_category")).toBe(seriesColor("some_new_category"));
    expect(seriesColor("some_new_category")).toMatch(/^#[0-9a-f]{6}$/);
    expect(seriesColor("ok")).not.toBe(seriesColor("errors"));
  });
});
