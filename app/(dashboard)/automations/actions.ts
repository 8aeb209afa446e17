"use server";
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { RuleCreateBody, RulePatch } from "@/lib/domains/automation/schemas";
import { createRule, updateRule } from "@/lib/domains/automation/service";
import { setBusinessHoursSetting } from "@/lib/domains/automation/settings";
import { BusinessHoursBody } from "@/lib/domains/business-hours/schemas";
import { SlaPolicyCreateBody } from "@/lib/domains/sla/schemas";
import { createPolicy, deletePolicy } from "@/lib/domains/sla/service";

export const createRuleAction = defineAction({
  permission: "automations",
  schema: RuleCreateBody,
  run: async ({ principal, input }) => ({ uid: (await createRule(principal, input.rule)).id }),
  revalidate: "/automations",
  fieldsBelow: "rule",
});

/** Saves the editor, or (with only enabled) switches the rule on or off. */
export const updateRuleAction = defineAction({
  permission: "automations",
  schema: z.object({ uid: RecordId, rule: RulePatch }),
  run: async ({ principal, input }) => {
    await updateRule(principal, input.uid, input.rule);
  },
  revalidate: "/automations",
  fieldsBelow: "rule",
});

export const setBusinessHoursAction = defineAction({
  permission: "automations",
  schema: BusinessHoursBody,
  run: async ({ principal, input }) => {
    await setBusinessHoursSetting(principal, input);
  },
  revalidate: "/automations/business-hours",
});

export const createSlaPolicyAction = defineAction({
  permission: "automations",
  schema: SlaPolicyCreateBody,
  run: async ({ principal, input }) => ({ uid: (await createPolicy(principal, input.policy)).id }),
  revalidate: "/automations/sla",
});

export const deleteSlaPolicyAction = defineAction({
  permission: "automations",
  schema: z.object({ uid: RecordId }),
  run: async ({ principal, input }) => {
    await deletePolicy(principal, input.uid);
  },
  revalidate: "/automations/sla",
});
