// A rule's conditions against what is known of the event (docs/automation.md "Conditions"):
// pure, no database. All must hold. Text comparisons ignore case unless the condition says
// caseSensitive; `matches` runs in re2js (linear time, compiled once and cached).
import { compilePattern, LIMITS } from "@/lib/domains/chatbots/engine";
import { type Condition, fieldFamily } from "./schemas";

export type Facts = {
  /** The triggering (or waiting) inbound message; null for an event without one. */
  message: { text: string; type: string } | null;
  contactFields: Record<string, string>;
  contactLabels: readonly string[];
  conversationLabels: readonly string[];
  /** The assignee's email, null when unassigned. */
  assignee: string | null;
  status: string;
  /** The sender's phone number. */
  sender: string;
  /** Inside the account's business hours (true when it has none: always open). */
  inBusinessHours: boolean;
};

const fold = (v: string, caseSensitive: boolean | undefined) => (caseSensitive ? v : v.toLowerCase());
const hasLabel = (labels: readonly string[], name: string) =>
  labels.some((l) => l.toLowerCase() === name.toLowerCase());

function textOp(op: string, actual: string | null, expected: string, caseSensitive?: boolean): boolean {
  if (op === "neq")
    return actual === null || fold(actual.trim(), caseSensitive) !== fold(expected.trim(), caseSensitive);
  if (actual === null) return false;
  if (op === "eq") return fold(actual.trim(), caseSensitive) === fold(expected.trim(), caseSensitive);
  if (op === "contains") return fold(actual, caseSensitive).includes(fold(expected, caseSensitive));
  if (op === "matches")
    return compilePattern(expected, caseSensitive).matcher(actual.slice(0, LIMITS.inboundLength)).find();
  return false;
}

export function conditionHolds(c: Condition, facts: Facts): boolean {
  const family = fieldFamily(c.field);
  if (family === "time") {
    return typeof c.value === "object" && c.value.inBusinessHours === facts.inBusinessHours;
  }
  if (typeof c.value !== "string") return false;
  const value = c.value;
  switch (family) {
    case "message.text":
      return textOp(c.op, facts.message?.text ?? null, value, c.caseSensitive);
    case "message.type":
      return textOp(c.op, facts.message?.type ?? null, value);
    case "contact.field": {
      const key = c.field.slice("contact.field.".length);
      return textOp(c.op, facts.contactFields[key] ?? null, value, c.caseSensitive);
    }
    case "contact.label":
      return hasLabel(facts.contactLabels, value) === (c.op === "has");
    case "conversation.label":
      return hasLabel(facts.conversationLabels, value) === (c.op === "has");
    case "conversation.assignee": {
      const actual = facts.assignee ?? "none";
      return (actual.toLowerCase() === value.trim().toLowerCase()) === (c.op === "eq");
    }
    case "conversation.status":
      return (facts.status === value) === (c.op === "eq");
    case "sender":
      return (facts.sender.replace(/\D/g, "") === value.replace(/\D/g, "")) === (c.op === "eq");
    default:
      return false;
  }
}

export const conditionsHold = (conditions: readonly Condition[], facts: Facts) =>
  conditions.every((c) => conditionHolds(c, facts));

/** Whether any condition reads labels (the facts then need them read). */
export const readsLabels = (conditions: readonly Condition[]) =>
  conditions.some((c) => c.field === "contact.label" || c.field === "conversation.label");
/** Whether any condition reads contact fields. */
export const readsContactFields = (conditions: readonly Condition[]) =>
  conditions.some((c) => c.field.startsWith("contact.field."));

/** What an event fixes before any row is read: its message and whether it came in business hours. */
export type EventFacts = Pick<Facts, "message" | "inBusinessHours">;
const EVENT_FAMILIES = new Set(["message.text", "message.type", "time"]);

/**
 * Whether the conditions on what the event fixes (message.text, message.type, time) hold:
 * when one does not, the rule's conditions cannot all hold whatever the database says, and
 * the runner skips it without opening a transaction (docs/automation.md "Where rules run").
 * The other conditions are left to conditionsHold, in the run's transaction.
 */
export function eventConditionsHold(conditions: readonly Condition[], facts: EventFacts): boolean {
  const all: Facts = {
    ...facts,
    contactFields: {},
    contactLabels: [],
    conversationLabels: [],
    assignee: null,
    status: "",
    sender: "",
  };
  return conditions.every((c) => !EVENT_FAMILIES.has(fieldFamily(c.field) ?? "") || conditionHolds(c, all));
}
