// One zod module for automation rules (docs/automation.md): the create and update bodies, the
// list and runs queries and the public shapes; the API, the dashboard editor and the OpenAPI
// document read these. Every refusal names its field (rule.conditions.1.value), and a
// `matches` pattern must compile in re2js (linear time) within the chatbots' bounds.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { hasNoControlChars } from "@/lib/core/storable-text";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { Variables } from "@/lib/domains/broadcasts/schemas";
import { largestRepeat, LIMITS as PATTERN_LIMITS, patternError, programSizeOf } from "@/lib/domains/chatbots/engine";

export const TRIGGER_EVENTS = [
  "message.inbound",
  "conversation.created",
  "conversation.idle",
  "conversation.unanswered",
  "conversation.labels_changed",
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];
export const TIMED_TRIGGERS: readonly TriggerEvent[] = ["conversation.idle", "conversation.unanswered"];

/** A week: the longest a time trigger waits. */
const MAX_MINUTES = 7 * 24 * 60;
const Minutes = z
  .number({ error: "minutes must be a number" })
  .int("minutes must be a whole number")
  .min(1, "minutes must be at least 1")
  .max(MAX_MINUTES, `minutes must be at most ${MAX_MINUTES} (a week)`);

export const TriggerSchema = z
  .strictObject(
    {
      event: z.enum(TRIGGER_EVENTS, { error: `trigger.event must be one of ${TRIGGER_EVENTS.join(", ")}` }),
      minutes: Minutes.optional(),
    },
    { error: "trigger must be an object {event, minutes?}" },
  )
  .superRefine((t, ctx) => {
    const timed = TIMED_TRIGGERS.includes(t.event);
    if (timed && t.minutes === undefined) {
      ctx.addIssue({ code: "custom", path: ["minutes"], message: `${t.event} needs minutes` });
    }
    if (!timed && t.minutes !== undefined) {
      ctx.addIssue({ code: "custom", path: ["minutes"], message: `${t.event} takes no minutes` });
    }
  });
export type Trigger = z.output<typeof TriggerSchema>;

const Text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => hasNoControlChars(v, true), `${name} must not contain control characters`);

const LabelName = Text("label", 40);

/** Which operators each field takes; `contact.field.<key>` reads as "contact.field". */
export const FIELD_OPS = {
  "message.text": ["contains", "matches", "eq"],
  "message.type": ["eq", "neq"],
  "contact.field": ["eq", "neq", "contains"],
  "contact.label": ["has", "not_has"],
  "conversation.label": ["has", "not_has"],
  "conversation.assignee": ["eq", "neq"],
  "conversation.status": ["eq", "neq"],
  sender: ["eq", "neq"],
  time: ["eq"],
} as const;
export type ConditionField = keyof typeof FIELD_OPS;
const FIELDS = Object.keys(FIELD_OPS) as ConditionField[];
const FIELD_KEY = /^contact\.field\.[A-Za-z0-9_.-]{1,64}$/;

/** The field's family: "contact.field.plan" is a contact.field condition. */
export const fieldFamily = (field: string): ConditionField | undefined =>
  FIELD_KEY.test(field) ? "contact.field" : FIELDS.find((f) => f === field && f !== "contact.field");

export const ConditionSchema = z
  .strictObject(
    {
      field: z.string({ error: "field must be a string" }).refine((f) => fieldFamily(f) !== undefined, {
        error: (i) =>
          `unknown field "${String(i.input)}" (one of ${FIELDS.filter((f) => f !== "contact.field").join(", ")}, contact.field.<key>)`,
      }),
      op: z.string({ error: "op must be a string" }),
      value: z.union([
        z.string({ error: "value must be a string" }).max(PATTERN_LIMITS.valueLength),
        z.strictObject({ inBusinessHours: z.boolean({ error: "inBusinessHours must be true or false" }) }),
      ]),
      caseSensitive: z.boolean({ error: "caseSensitive must be true or false" }).optional(),
    },
    { error: "each condition must be {field, op, value}" },
  )
  .superRefine((c, ctx) => {
    const family = fieldFamily(c.field);
    if (!family) return;
    const ops: readonly string[] = FIELD_OPS[family];
    const at = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!ops.includes(c.op)) return at("op", `${c.field} takes op ${ops.join(", ")}`);
    if (family === "time") {
      if (typeof c.value === "string") at("value", "time takes value {inBusinessHours: true | false}");
      return;
    }
    if (typeof c.value !== "string") return at("value", `${c.field} takes a text value`);
    if (!hasNoControlChars(c.value)) return at("value", "value must not contain control characters");
    if (c.value.trim() === "" && family !== "contact.field") return at("value", "value must not be empty");
    if (family === "conversation.status" && !["OPEN", "CLOSED"].includes(c.value)) {
      return at("value", "conversation.status is OPEN or CLOSED");
    }
    if (c.op === "matches") {
      // Linear time is not cheap time: the chatbots' bounds hold (docs/chatbots.md "Patterns").
      const error = patternError(c.value);
      const repeat = largestRepeat(c.value);
      if (error) at("value", `invalid regex (linear-time syntax only): ${error}`);
      else if (repeat > PATTERN_LIMITS.repeat) {
        at("value", `a repetition bound of ${repeat} is over the limit of ${PATTERN_LIMITS.repeat}`);
      } else if (programSizeOf(c.value, c.caseSensitive) > PATTERN_LIMITS.programSize) {
        at("value", `the pattern compiles to more than ${PATTERN_LIMITS.programSize} instructions; simplify it`);
      }
    }
  });
export type Condition = z.output<typeof ConditionSchema>;

const TemplateRef = z.strictObject(
  {
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, "name is required")
      .max(512)
      .regex(/^[a-z0-9_]+$/, "name must use lower-case letters, digits and _"),
    language: z
      .string({ error: "language must be a string" })
      .trim()
      .regex(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, "language must be a language code such as en or en_US"),
  },
  { error: "template must be an object {name, language}" },
);

const Email = z
  .string({ error: "assignee must be a member's email" })
  .trim()
  .toLowerCase()
  .email("assignee must be an email");

export const ACTION_TYPES = [
  "assign",
  "label",
  "unlabel",
  "note",
  "send_text",
  "send_template",
  "close",
  "snooze",
  "webhook",
] as const;

export const ActionSchema = z.discriminatedUnion(
  "type",
  [
    z
      .strictObject({ type: z.literal("assign"), assignee: Email.optional(), roundRobin: z.literal(true).optional() })
      .refine((a) => (a.assignee === undefined) !== (a.roundRobin === undefined), {
        message: "assign needs assignee (an email) or roundRobin: true, not both",
        path: ["assignee"],
      }),
    z.strictObject({
      type: z.literal("label"),
      labels: z
        .array(LabelName, { error: "labels must be an array of names" })
        .min(1, "labels must not be empty")
        .max(10),
    }),
    z.strictObject({
      type: z.literal("unlabel"),
      labels: z
        .array(LabelName, { error: "labels must be an array of names" })
        .min(1, "labels must not be empty")
        .max(10),
    }),
    z.strictObject({ type: z.literal("note"), text: Text("text", 4096) }),
    z.strictObject({
      type: z.literal("send_text"),
      text: Text("text", 4096),
      fallbackTemplate: TemplateRef.optional(),
    }),
    z.strictObject({
      type: z.literal("send_template"),
      template: TemplateRef,
      variables: Variables.default({ body: [], header: [] }),
    }),
    z.strictObject({ type: z.literal("close") }),
    z.strictObject({ type: z.literal("snooze"), minutes: Minutes }),
    z.strictObject({ type: z.literal("webhook") }),
  ],
  { error: `each action needs a type: ${ACTION_TYPES.join(", ")}` },
);
export type Action = z.output<typeof ActionSchema>;

const RuleFields = {
  name: ResourceName,
  enabled: z.boolean({ error: "enabled must be true or false" }),
  trigger: TriggerSchema,
  conditions: z.array(ConditionSchema, { error: "conditions must be an array" }).max(20, "at most 20 conditions"),
  actions: z
    .array(ActionSchema, { error: "actions must be an array" })
    .min(1, "a rule needs at least one action")
    .max(10, "at most 10 actions"),
  senderIds: z
    .array(z.string({ error: "each senderId must be a sender's phone number" }).trim().min(1), {
      error: "senderIds must be an array of the senders' phone numbers",
    })
    .max(50)
    .describe("The senders (phone numbers) the rule watches; empty: all of the account's senders"),
};

export const RuleCreateInput = z.strictObject(
  {
    ...RuleFields,
    enabled: RuleFields.enabled.default(true),
    conditions: RuleFields.conditions.default([]),
    senderIds: RuleFields.senderIds.default([]),
  },
  { error: "rule must be an object {name, trigger, conditions?, actions, enabled?, senderIds?}" },
);
export type RuleCreateInput = z.output<typeof RuleCreateInput>;
export const RuleCreateBody = z.strictObject({ rule: RuleCreateInput }, { error: "the body must be {rule: {...}}" });

export const RulePatch = z
  .strictObject(
    {
      name: RuleFields.name.optional(),
      enabled: RuleFields.enabled.optional(),
      trigger: RuleFields.trigger.optional(),
      conditions: RuleFields.conditions.optional(),
      actions: RuleFields.actions.optional(),
      senderIds: RuleFields.senderIds.optional(),
    },
    { error: "rule must be an object" },
  )
  .refine((p) => Object.keys(p).length > 0, "rule needs at least one field to change");
export type RulePatch = z.output<typeof RulePatch>;
export const RuleUpdateBody = z.strictObject({ rule: RulePatch }, { error: "the body must be {rule: {...}}" });

export const RuleUid = PublicId;
export const RuleListQuery = PageQuery;
export const RunListQuery = PageQuery;

export const RulePublic = z
  .object({
    ruleUid: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    trigger: z.object({ event: z.enum(TRIGGER_EVENTS), minutes: z.number().int().optional() }),
    conditions: z.array(
      z.object({ field: z.string(), op: z.string(), value: z.unknown(), caseSensitive: z.boolean().optional() }),
    ),
    actions: z.array(z.object({ type: z.enum(ACTION_TYPES) }).catchall(z.unknown())),
    senderIds: z.array(z.string()),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "AutomationRule" });
export type RulePublic = z.output<typeof RulePublic>;

export const RUN_OUTCOMES = ["pending", "done", "skipped", "failed"] as const;
export const ActionOutcome = z.object({
  type: z.enum(ACTION_TYPES),
  outcome: z.enum(["pending", "done", "skipped", "failed"]),
  reason: z.string().nullable(),
});
export type ActionOutcome = z.output<typeof ActionOutcome>;

export const RunPublic = z
  .object({
    runUid: z.string(),
    trigger: z.enum(TRIGGER_EVENTS),
    conversationUid: z.string().nullable(),
    outcome: z.enum(RUN_OUTCOMES),
    actions: z.array(ActionOutcome),
    at: isoTimestamp(),
  })
  .meta({ id: "AutomationRun" });
export type RunPublic = z.output<typeof RunPublic>;

export const RuleListPublic = z.object({
  rules: z.array(RulePublic),
  items: z.array(RulePublic),
  pagination: PageBlockSchema,
});
export const RunListPublic = z.object({
  runs: z.array(RunPublic),
  items: z.array(RunPublic),
  pagination: PageBlockSchema,
});
export const RuleDeletedPublic = z.object({ ruleUid: z.string(), deleted: z.literal(true) });
