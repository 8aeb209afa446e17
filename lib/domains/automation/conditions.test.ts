// What the runner reads before any row (docs/automation.md "Where rules run"): a rule whose
// message or time condition fails is skipped without a transaction, so the check must say
// "may hold" for every rule whose conditions could all hold, and rule out only the others.
import { describe, expect, it } from "vitest";
import { conditionsHold, eventConditionsHold, type Facts } from "./conditions";
import type { Condition } from "./schemas";

const facts: Facts = {
  message: { text: "I want a REFUND for order 12345", type: "text" },
  contactFields: { plan: "enterprise" },
  contactLabels: [],
  conversationLabels: ["VIP"],
  assignee: null,
  status: "OPEN",
  sender: "+15550100000",
  inBusinessHours: false,
};
const event = { message: facts.message, inBusinessHours: facts.inBusinessHours };
const text = (value: string): Condition => ({ field: "message.text", op: "contains", value });

describe("eventConditionsHold", () => {
  it("rules out a rule whose message text, message type or time condition fails", () => {
    expect(eventConditionsHold([text("invoice")], event)).toBe(false);
    expect(eventConditionsHold([{ field: "message.type", op: "eq", value: "image" }], event)).toBe(false);
    expect(eventConditionsHold([{ field: "time", op: "eq", value: { inBusinessHours: true } }], event)).toBe(false);
    expect(eventConditionsHold([{ field: "message.text", op: "matches", value: "order\\s*\\d{6,}" }], event)).toBe(
      false,
    );
    // An event without a message (a new conversation's, a time trigger's) holds no message condition.
    expect(eventConditionsHold([text("refund")], { message: null, inBusinessHours: true })).toBe(false);
  });

  it("leaves every condition it cannot judge to the run: labels, contact fields, assignee, status, sender", () => {
    const later: Condition[] = [
      { field: "conversation.label", op: "has", value: "nobody-has-this" },
      { field: "contact.label", op: "has", value: "nobody-has-this" },
      { field: "contact.field.plan", op: "eq", value: "free" },
      { field: "conversation.assignee", op: "eq", value: "someone@example.test" },
      { field: "conversation.status", op: "eq", value: "CLOSED" },
      { field: "sender", op: "eq", value: "+19999999999" },
    ];
    expect(eventConditionsHold(later, event)).toBe(true);
    expect(eventConditionsHold([text("refund"), ...later], event)).toBe(true);
  });

  it("never rules out a rule whose conditions all hold", () => {
    const sets: Condition[][] = [
      [],
      [text("refund")],
      [text("refund"), { field: "conversation.label", op: "has", value: "VIP" }],
      [
        { field: "message.text", op: "matches", value: "order\\s*\\d{5,}" },
        { field: "message.type", op: "eq", value: "text" },
      ],
      [
        { field: "time", op: "eq", value: { inBusinessHours: false } },
        { field: "contact.field.plan", op: "eq", value: "enterprise" },
      ],
    ];
    for (const conditions of sets) {
      expect(conditionsHold(conditions, facts)).toBe(true);
      expect(eventConditionsHold(conditions, event)).toBe(true);
    }
  });
});
