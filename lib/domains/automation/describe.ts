// A rule in plain words (the dashboard's list and editor): "When a message arrives and its
// text contains "refund", label "refund" and assign to billing@example.com".
import type { Action, Condition, Trigger } from "./schemas";

const q = (v: string) => `"${v}"`;

export function describeTrigger(t: Trigger): string {
  switch (t.event) {
    case "message.inbound":
      return "When a message arrives";
    case "conversation.created":
      return "When a new conversation starts";
    case "conversation.idle":
      return `When a conversation is quiet for ${t.minutes} minutes`;
    case "conversation.unanswered":
      return `When a contact waits ${t.minutes} minutes for a reply`;
    case "conversation.labels_changed":
      return "When a conversation's labels change";
  }
}

const OPS: Record<string, string> = {
  contains: "contains",
  matches: "matches the pattern",
  eq: "is",
  neq: "is not",
  has: "has",
  not_has: "does not have",
};

export function describeCondition(c: Condition): string {
  if (c.field === "time" && typeof c.value === "object") {
    return c.value.inBusinessHours ? "it is within business hours" : "it is outside business hours";
  }
  const value = typeof c.value === "string" ? c.value : "";
  const op = OPS[c.op] ?? c.op;
  if (c.field === "message.text") return `its text ${op} ${q(value)}`;
  if (c.field === "message.type") return `it ${op} a ${value} message`;
  if (c.field.startsWith("contact.field.")) return `the contact's ${c.field.slice(14)} ${op} ${q(value)}`;
  if (c.field === "contact.label") return `the contact ${op} the label ${q(value)}`;
  if (c.field === "conversation.label") return `the conversation ${op} the label ${q(value)}`;
  if (c.field === "conversation.assignee") {
    return value === "none"
      ? `the conversation ${c.op === "eq" ? "is" : "is not"} unassigned`
      : `the assignee ${op} ${value}`;
  }
  if (c.field === "conversation.status") return `the conversation ${op} ${value.toLowerCase()}`;
  if (c.field === "sender") return `the sender ${op} ${value}`;
  return `${c.field} ${op} ${q(value)}`;
}

export function describeAction(a: Action): string {
  switch (a.type) {
    case "assign":
      return a.roundRobin ? "assign to the next agent in turn" : `assign to ${a.assignee}`;
    case "label":
      return `label ${a.labels.map(q).join(", ")}`;
    case "unlabel":
      return `remove the label ${a.labels.map(q).join(", ")}`;
    case "note":
      return `add the note ${q(a.text)}`;
    case "send_text":
      return `reply ${q(a.text)}${a.fallbackTemplate ? ` (template ${a.fallbackTemplate.name} once the window closed)` : ""}`;
    case "send_template":
      return `send the template ${a.template.name}`;
    case "close":
      return "close the conversation";
    case "snooze":
      return `snooze it for ${a.minutes} minutes`;
    case "webhook":
      return "send automation.triggered to the webhooks";
  }
}

const list = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;

export function describeRule(rule: { trigger: Trigger; conditions: Condition[]; actions: Action[] }): string {
  const when = describeTrigger(rule.trigger);
  const conditions = rule.conditions.length > 0 ? ` and ${list(rule.conditions.map(describeCondition))}` : "";
  return `${when}${conditions}, ${list(rule.actions.map(describeAction))}.`;
}
