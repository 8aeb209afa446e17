import { describe, expect, it } from "vitest";
import { isQuiet } from "./quiet";
import type { SupportFigures } from "./schemas";

const none = { median: null, p90: null, businessMedian: null, businessP90: null };
const zero: SupportFigures = {
  conversations: 0,
  reopened: 0,
  inbound: 0,
  outbound: 0,
  firstResponse: none,
  nextResponse: none,
  resolved: 0,
  resolution: none,
  csat: { responses: 0, score: null },
  slaBreaches: 0,
};

describe("isQuiet", () => {
  it("holds for a day where nothing happened", () => {
    expect(isQuiet(zero)).toBe(true);
  });

  it("fails for a day with any of: a period begun, a close, a reply, a later response, a survey answer, a breach", () => {
    const busy: Partial<SupportFigures>[] = [
      { conversations: 1 },
      { resolved: 1 },
      { outbound: 1 },
      { nextResponse: { ...none, median: 60, p90: 60 } },
      { csat: { responses: 1, score: 100 } },
      { slaBreaches: 1 },
    ];
    for (const change of busy) expect(isQuiet({ ...zero, ...change }), JSON.stringify(change)).toBe(false);
  });
});
