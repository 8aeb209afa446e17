// One zod module for SLA policies (docs/reports.md "SLA policies"): the create and update
// bodies and the public shapes of a policy and of a conversation's SLA. The API, the
// dashboard's settings page and the OpenAPI document import these. Every refusal names its
// field (policy.firstResponseMinutes).
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { isoTimestamp } from "@/lib/core/timestamp-schema";

export const SLA_TARGETS = ["first_response", "next_response", "resolution"] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];

/** A year: the longest target a policy may set. */
const MAX_MINUTES = 366 * 24 * 60;
const Minutes = (name: string) =>
  z
    .number({ error: `${name} must be a number of minutes or null` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(MAX_MINUTES, `${name} must be at most ${MAX_MINUTES} (a year)`)
    .nullable();

/** A label's name as the labels domain bounds it (1-40 characters); matched whatever the case. */
const LabelName = z
  .string({ error: "each label must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(40, "must be at most 40 characters");

/** How many policies one account may have (each inbound reads them all, in order). */
export const MAX_POLICIES = 50;

const Applies = z.strictObject(
  {
    senderIds: z
      .array(z.string({ error: "each senderId must be a sender's phone number" }).trim().min(1), {
        error: "senderIds must be an array of the senders' phone numbers",
      })
      .max(50)
      .default([])
      .describe("The senders (phone numbers) whose conversations it covers; empty: every sender"),
    labels: z
      .array(LabelName, { error: "labels must be an array of label names" })
      .max(50)
      .default([])
      .describe("A conversation with any of these labels; empty: any conversation"),
  },
  { error: "applies must be an object {senderIds?, labels?}" },
);

const PolicyFields = {
  name: ResourceName,
  firstResponseMinutes: Minutes("firstResponseMinutes").describe(
    "Minutes to a person's first reply after the inbound that waits; null: no target",
  ),
  nextResponseMinutes: Minutes("nextResponseMinutes").describe(
    "Minutes to each later reply after an inbound that waited; null: no target",
  ),
  resolutionMinutes: Minutes("resolutionMinutes").describe(
    "Minutes from the period's first inbound to its close; null: no target",
  ),
  businessHoursOnly: z
    .boolean({ error: "businessHoursOnly must be true or false" })
    .describe("Count only the account's business hours (always open when none are set)"),
  applies: Applies,
};

const atLeastOneTarget = (p: {
  firstResponseMinutes?: number | null;
  nextResponseMinutes?: number | null;
  resolutionMinutes?: number | null;
}) => p.firstResponseMinutes != null || p.nextResponseMinutes != null || p.resolutionMinutes != null;

export const SlaPolicyCreateInput = z
  .strictObject(
    {
      name: PolicyFields.name,
      firstResponseMinutes: PolicyFields.firstResponseMinutes.default(null),
      nextResponseMinutes: PolicyFields.nextResponseMinutes.default(null),
      resolutionMinutes: PolicyFields.resolutionMinutes.default(null),
      businessHoursOnly: PolicyFields.businessHoursOnly.default(false),
      applies: PolicyFields.applies.default({ senderIds: [], labels: [] }),
    },
    {
      error:
        "policy must be an object {name, firstResponseMinutes?, nextResponseMinutes?, resolutionMinutes?, businessHoursOnly?, applies?}",
    },
  )
  .refine(atLeastOneTarget, {
    message: "a policy needs at least one of firstResponseMinutes, nextResponseMinutes, resolutionMinutes",
    path: ["firstResponseMinutes"],
  });
export type SlaPolicyCreateInput = z.output<typeof SlaPolicyCreateInput>;
export const SlaPolicyCreateBody = z.strictObject(
  { policy: SlaPolicyCreateInput },
  { error: "the body must be {policy: {...}}" },
);

export const SlaPolicyPatch = z
  .strictObject(
    {
      name: PolicyFields.name.optional(),
      firstResponseMinutes: PolicyFields.firstResponseMinutes.optional(),
      nextResponseMinutes: PolicyFields.nextResponseMinutes.optional(),
      resolutionMinutes: PolicyFields.resolutionMinutes.optional(),
      businessHoursOnly: PolicyFields.businessHoursOnly.optional(),
      applies: PolicyFields.applies.optional(),
      position: z
        .number({ error: "position must be a number" })
        .int("position must be a whole number")
        .min(0, "position must be at least 0")
        .optional()
        .describe("Its place in the account's order, from 0 (the first that applies wins)"),
    },
    { error: "policy must be an object" },
  )
  .refine((p) => Object.keys(p).length > 0, "policy needs at least one field to change");
export type SlaPolicyPatch = z.output<typeof SlaPolicyPatch>;
export const SlaPolicyUpdateBody = z.strictObject(
  { policy: SlaPolicyPatch },
  { error: "the body must be {policy: {...}}" },
);

export const SlaUid = PublicId;

export const SlaPolicyPublic = z
  .object({
    slaUid: z.string(),
    name: z.string(),
    position: z.number().int().describe("Its place in the account's order, from 0"),
    firstResponseMinutes: z.number().int().nullable(),
    nextResponseMinutes: z.number().int().nullable(),
    resolutionMinutes: z.number().int().nullable(),
    businessHoursOnly: z.boolean(),
    applies: z.object({ senderIds: z.array(z.string()), labels: z.array(z.string()) }),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "SlaPolicy" });
export type SlaPolicyPublic = z.output<typeof SlaPolicyPublic>;

export const SlaPolicyListPublic = z.object({ policies: z.array(SlaPolicyPublic), items: z.array(SlaPolicyPublic) });
export const SlaPolicyDeletedPublic = z.object({ slaUid: z.string(), deleted: z.literal(true) });

/** A conversation's SLA in its API object (null without a policy). */
export const ConversationSlaPublic = z
  .object({
    policyUid: z.string().describe("The SLA policy that applies: the account's first that matches"),
    firstResponseDueAt: isoTimestamp()
      .nullable()
      .describe("When a person's first reply is due; null: no such target, already replied, or nothing waits"),
    nextResponseDueAt: isoTimestamp()
      .nullable()
      .describe("When a reply to the contact's later message is due; null while nothing waits"),
    resolutionDueAt: isoTimestamp().nullable().describe("When the close is due; null: no such target or closed"),
    breaches: z
      .array(z.enum(SLA_TARGETS))
      .describe("The targets the current period missed (each recorded once; conversation.sla_breached)"),
  })
  .nullable()
  .meta({ id: "ConversationSla" });
