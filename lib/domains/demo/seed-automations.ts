// The demo's automation rules (docs/automation.md): refund routing (label, note, assign), VIP
// labelling and a 30-minute unanswered nudge by note, so the Automations page and a rule's page have something real at first start.
// Once per account: an account that already has rules keeps its own.
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { RuleCreateInput } from "@/lib/domains/automation/schemas";
import { DEMO_EMAIL } from "./constants";

const DEMO_RULES = [
  {
    name: "Refund routing",
    trigger: { event: "message.inbound" },
    conditions: [{ field: "message.text", op: "contains", value: "refund" }],
    actions: [
      { type: "label", labels: ["refund"] },
      { type: "note", text: "Refund asked: billing team, please take this one." },
      { type: "assign", assignee: DEMO_EMAIL },
    ],
  },
  {
    name: "VIP labelling",
    trigger: { event: "conversation.created" },
    conditions: [{ field: "contact.field.vip", op: "eq", value: "true" }],
    actions: [{ type: "label", labels: ["VIP"] }],
  },
  {
    name: "Unanswered for 30 minutes",
    trigger: { event: "conversation.unanswered", minutes: 30 },
    conditions: [],
    actions: [{ type: "note", text: "This customer has waited 30 minutes for an answer." }],
  },
];

export async function ensureAutomations(customerId: string): Promise<void> {
  if ((await db.automationRule.count({ where: { customerId } })) > 0) return;
  for (const spec of DEMO_RULES) {
    const rule = RuleCreateInput.parse(spec);
    await db.automationRule.create({
      data: {
        id: newId("rule_"),
        customerId,
        name: rule.name,
        enabled: rule.enabled,
        triggerEvent: rule.trigger.event,
        trigger: rule.trigger,
        conditions: rule.conditions,
        actions: rule.actions,
        senderIds: [],
      },
    });
  }
}
