// Automation rules (docs/automation.md) and the business hours they read: list, create, read,
// update (POST, at least one field), delete, the runs log; GET|POST /settings/business-hours.
// Account-wide: a global token only (a number-scoped one answers TOKEN_SCOPE_NOT_ALLOWED).
import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/automation/examples";
import {
  RuleCreateBody,
  RuleDeletedPublic,
  RuleListPublic,
  RuleListQuery,
  RulePublic,
  RuleUid,
  RuleUpdateBody,
  RunListPublic,
  RunListQuery,
} from "@/lib/domains/automation/schemas";
import { toPublicRule, toPublicRun } from "@/lib/domains/automation/serializers";
import {
  createRule,
  deleteRule,
  getRule,
  listRules,
  listRuns,
  senderPhones,
  updateRule,
} from "@/lib/domains/automation/service";
import { getBusinessHoursSetting, setBusinessHoursSetting } from "@/lib/domains/automation/settings";
import { BusinessHoursBody, BusinessHoursPublic } from "@/lib/domains/business-hours/schemas";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Automations",
  tokenScope: "global",
  permission: "automations",
} as const;
const byUid = {
  ...common,
  params: { ruleUid: RuleUid },
  paramNotFound: { ruleUid: "AUTOMATION_NOT_FOUND" },
  errors: ["AUTOMATION_NOT_FOUND"],
} as const;

export const automationRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/automations",
    example: examples.getAutomations,
    summary: "List automation rules",
    description: "The account's rules, newest first.",
    query: RuleListQuery,
    response: RuleListPublic,
    handler: async ({ principal, query }) => {
      const { rules, total } = await listRules(principal, query);
      const phones = await senderPhones(principal.customerId);
      return ok(
        "Automation rules retrieved",
        pageOf(
          "rules",
          rules.map((r) => toPublicRule(r, phones)),
          query,
          total,
        ),
      );
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/automations",
    example: examples.postAutomations,
    idempotent: "automation.create",
    summary: "Create an automation rule",
    description:
      "A trigger, conditions (all must hold) and actions in order; a matches pattern must be a linear-time regex, and every label named must be one of the account's (VALIDATION_FAILED naming the field).",
    body: RuleCreateBody,
    response: RulePublic,
    successStatus: 201,
    handler: async ({ principal, body }) => {
      const rule = await createRule(principal, body.rule);
      return {
        status: 201,
        ...ok("Automation rule created", toPublicRule(rule, await senderPhones(principal.customerId))),
      };
    },
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/automations/:ruleUid",
    example: examples.getAutomationsByRuleUid,
    summary: "Read an automation rule",
    response: RulePublic,
    handler: async ({ principal, params }) =>
      ok(
        "Automation rule retrieved",
        toPublicRule(await getRule(principal, params.ruleUid), await senderPhones(principal.customerId)),
      ),
  }),
  route({
    ...byUid,
    method: "POST",
    path: "/automations/:ruleUid",
    example: examples.postAutomationsByRuleUid,
    summary: "Update an automation rule",
    description:
      "At least one field; enabled: false stops the rule (its pending timers do nothing when due). Labels it names are checked as at create.",
    body: RuleUpdateBody,
    response: RulePublic,
    handler: async ({ principal, params, body }) =>
      ok(
        "Automation rule updated",
        toPublicRule(await updateRule(principal, params.ruleUid, body.rule), await senderPhones(principal.customerId)),
      ),
  }),
  route({
    ...byUid,
    method: "DELETE",
    path: "/automations/:ruleUid",
    example: examples.deleteAutomationsByRuleUid,
    summary: "Delete an automation rule",
    description: "The rule, its runs and its pending timers go.",
    response: RuleDeletedPublic,
    handler: async ({ principal, params }) => {
      await deleteRule(principal, params.ruleUid);
      return ok("Automation rule deleted", { ruleUid: params.ruleUid, deleted: true as const });
    },
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/automations/:ruleUid/runs",
    example: examples.getAutomationsByRuleUidRuns,
    summary: "List a rule's runs",
    description: "Newest first: what triggered each run, its conversation and each action's outcome.",
    query: RunListQuery,
    response: RunListPublic,
    handler: async ({ principal, params, query }) => {
      const { runs, total } = await listRuns(principal, params.ruleUid, query);
      return ok("Automation runs retrieved", pageOf("runs", runs.map(toPublicRun), query, total));
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/settings/business-hours",
    example: examples.getSettingsBusinessHours,
    summary: "Read the business hours",
    description: "The account's time zone, weekly ranges and holidays (null: always open), and the away reply.",
    response: BusinessHoursPublic,
    handler: async ({ principal }) => ok("Business hours retrieved", await getBusinessHoursSetting(principal)),
  }),
  route({
    ...common,
    method: "POST",
    path: "/settings/business-hours",
    example: examples.postSettingsBusinessHours,
    summary: "Set the business hours",
    description:
      "businessHours (null removes them) and/or awayReply {enabled, text}: an automatic reply once per closed period of a conversation. A change of the hours moves the SLA due times of the open conversations whose policy counts business hours within seconds, in the background.",
    body: BusinessHoursBody,
    response: BusinessHoursPublic,
    handler: async ({ principal, body }) =>
      ok("Business hours updated", await setBusinessHoursSetting(principal, body)),
  }),
];
