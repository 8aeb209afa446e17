// What the broadcast pages say about a pause and a share (docs/broadcasts.md "States").
import { describe, expect, it } from "vitest";
import { pauseText, percent } from "./labels";

describe("pauseText", () => {
  it("says who paused it and what happens next, with resumesAt for the messaging limit", () => {
    expect(pauseText(null, null)).toMatch(/^Paused by a member of your team/);
    expect(pauseText("messaging_limit", "2026-12-01T09:30:00.000Z")).toContain(
      "It resumes by itself at 2026-12-01 09:30 UTC",
    );
    expect(pauseText("messaging_limit", null)).toContain("when the oldest counted contact leaves the 24 hours");
    expect(pauseText("insufficient_balance", null)).toContain("Add credit, then resume it");
    expect(pauseText("template_not_approved", null)).toContain("no longer approved");
    expect(pauseText("sender_disconnected", null)).toContain("Reconnect it");
    expect(pauseText("something_new", null)).toBe("Paused by the service (something_new).");
  });
});

describe("percent", () => {
  it("is a whole percent, and a dash with nothing to divide by", () => {
    expect(percent(1, 3)).toBe("33%");
    expect(percent(8, 8)).toBe("100%");
    expect(percent(0, 0)).toBe("—");
  });
});
