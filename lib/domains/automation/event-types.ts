// The events of automation rules (docs/automation.md; catalog group "Automations").
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";
import { TRIGGER_EVENTS } from "./schemas";

export const AutomationTriggered = defineEvent({
  type: "automation.triggered",
  description: "A rule with a webhook action ran: which rule, what triggered it and the conversation.",
  schema: z.object({
    ruleUid: z.string(),
    ruleName: z.string(),
    runUid: z.string(),
    trigger: z.enum(TRIGGER_EVENTS),
    conversationUid: z.string(),
    contactPhoneNumber: z.string(),
    at: EventTime,
  }),
  example: {
    ruleUid: "rule_0f3a9c2e1b7d4a5c6e8f0a1b",
    ruleName: "Refunds to billing",
    runUid: "run_0f3a9c2e1b7d4a5c6e8f0a1c",
    trigger: "message.inbound",
    conversationUid: "cm3conversation01",
    contactPhoneNumber: "+15550100002",
    at: EXAMPLE_AT,
  },
});

export const AUTOMATION_EVENTS = [AutomationTriggered] as const;
