// The OpenAPI examples of the automation and business hours routes (docs/openapi.md "Adding a
// route"): one sample rule and run through the serializers the routes answer with.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { AutomationRule, AutomationRun } from "@/lib/generated/prisma/client";
import { toPublicRule, toPublicRun } from "./serializers";

const rule = {
  name: "Refunds to billing",
  trigger: { event: "message.inbound" },
  conditions: [{ field: "message.text", op: "contains", value: "refund" }],
  actions: [
    { type: "label", labels: ["refund"] },
    { type: "assign", assignee: "billing@example.com" },
  ],
} as const;

const ruleRow: AutomationRule = {
  id: "rule_mwtr9dy580d00daf32ad1db4ff17",
  customerId: SAMPLE_CUSTOMER_ID,
  name: rule.name,
  enabled: true,
  triggerEvent: rule.trigger.event,
  trigger: { ...rule.trigger },
  conditions: rule.conditions.map((c) => ({ ...c })),
  actions: [{ type: "label", labels: ["refund"] }, { ...rule.actions[1] }],
  senderIds: [],
  builtIn: null,
  lastAssigneeId: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
const phones = new Map([[sampleSender.id, sampleSender.phoneNumber]]);
const publicRule = toPublicRule(ruleRow, phones);
const params = { ruleUid: ruleRow.id };

const runRow: AutomationRun = {
  id: "run_mwtr9dy580d00daf32ad1db4ff18",
  customerId: SAMPLE_CUSTOMER_ID,
  ruleId: ruleRow.id,
  eventKey: "message.inbound:wamid.HBgLMTU1NTAxMDAwMDIVAgASGBQzQTdCNUQ",
  trigger: "message.inbound",
  conversationId: "conv_5f1c9a7e2b3d4c6e8a0b1c2d",
  outcome: "done",
  actions: [
    { type: "label", outcome: "done", reason: null },
    { type: "assign", outcome: "done", reason: "billing@example.com" },
  ],
  createdAt: exampleTime(1),
};

export const getAutomations = { message: "Automation rules retrieved", response: listExample("rules", [publicRule]) };
export const postAutomations = { request: { rule }, message: "Automation rule created", response: publicRule };
export const getAutomationsByRuleUid = { params, message: "Automation rule retrieved", response: publicRule };
export const postAutomationsByRuleUid = {
  params,
  request: { rule: { enabled: false } },
  message: "Automation rule updated",
  response: toPublicRule({ ...ruleRow, enabled: false, updatedAt: exampleTime(2) }, phones),
};
export const deleteAutomationsByRuleUid = {
  params,
  message: "Automation rule deleted",
  response: { ruleUid: ruleRow.id, deleted: true as const },
};
export const getAutomationsByRuleUidRuns = {
  params,
  message: "Automation runs retrieved",
  response: listExample("runs", [toPublicRun(runRow)]),
};

const hours = {
  timezone: "Europe/Berlin",
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
  holidays: ["2026-12-25"],
};
export const getSettingsBusinessHours = {
  message: "Business hours retrieved",
  response: { businessHours: hours, awayReply: { enabled: true, text: "We are closed; we answer at 9." } },
};
export const postSettingsBusinessHours = {
  request: { businessHours: hours, awayReply: { enabled: true, text: "We are closed; we answer at 9." } },
  message: "Business hours updated",
  response: getSettingsBusinessHours.response,
};
