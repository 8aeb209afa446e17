import { describe, expect, it } from "vitest";
import { describeRule } from "./describe";

describe("describeRule", () => {
  it("says a rule in plain words", () => {
    expect(
      describeRule({
        trigger: { event: "message.inbound" },
        conditions: [{ field: "message.text", op: "contains", value: "refund" }],
        actions: [
          { type: "label", labels: ["refund"] },
          { type: "assign", assignee: "billing@example.com" },
        ],
      }),
    ).toBe('When a message arrives and its text contains "refund", label "refund" and assign to billing@example.com.');
    expect(
      describeRule({
        trigger: { event: "conversation.unanswered", minutes: 30 },
        conditions: [{ field: "time", op: "eq", value: { inBusinessHours: true } }],
        actions: [{ type: "note", text: "Nudge" }],
      }),
    ).toBe('When a contact waits 30 minutes for a reply and it is within business hours, add the note "Nudge".');
  });
});
