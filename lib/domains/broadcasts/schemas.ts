// One zod module for broadcasts (docs/broadcasts.md): create and update bodies, list and
// recipient queries, the start body and the public shapes. The API router, the dashboard's
// forms and the OpenAPI document use these.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { hasNoControlChars } from "@/lib/core/storable-text";
import { isoTimestamp } from "@/lib/core/timestamp-schema";

export const BROADCAST_STATUSES = [
  "DRAFT",
  "SCHEDULED",
  "STARTING",
  "SENDING",
  "PAUSED",
  "COMPLETED",
  "CANCELLED",
] as const;
export const BroadcastStatus = z.enum(BROADCAST_STATUSES, {
  error: `status must be one of ${BROADCAST_STATUSES.join(", ")}`,
});

export const RECIPIENT_STATUSES = [
  "queued",
  "skipped",
  "sending",
  "accepted",
  "sent",
  "delivered",
  "read",
  "failed",
  "interrupted",
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const RecipientStatus = z.enum(RECIPIENT_STATUSES, {
  error: `status must be one of ${RECIPIENT_STATUSES.join(", ")}`,
});

export const SKIP_REASONS = ["blacklisted", "invalid_number", "missing_variable", "cancelled"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const PAUSE_REASONS = [
  "insufficient_balance",
  "messaging_limit",
  "template_not_approved",
  "sender_disconnected",
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

const Text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => hasNoControlChars(v), `${name} must not contain control characters`);

/** A contact field a filter or variable reads: the built-in ones or a custom field key. */
const FieldKey = z
  .string({ error: "field must be a string" })
  .trim()
  .min(1, "field is required")
  .max(64, "field must be at most 64 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "field must be a contact field key (letters, digits, _ . -)");

export const FILTER_OPS = ["eq", "neq", "contains", "exists", "gt", "lt"] as const;
export const AudienceFilter = z
  .strictObject(
    {
      field: FieldKey.describe("name, email, phoneNumber or a custom field key"),
      op: z.enum(FILTER_OPS, { error: `op must be one of ${FILTER_OPS.join(", ")}` }),
      value: z.union([Text("value", 500), z.number(), z.boolean()]).optional(),
    },
    { error: "each filter must be {field, op, value}" },
  )
  .superRefine((f, ctx) => {
    if (f.op !== "exists" && f.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `a ${f.op} filter needs a value` });
    }
  });
export type AudienceFilter = z.output<typeof AudienceFilter>;

export const MAX_PHONE_NUMBERS = 10_000;

/** Segment uids are seg_ and lower-case letters and digits (docs/automation.md "Segments"). */
export const SEGMENT_UID = /^seg_[0-9a-z]{1,64}$/;

export const Audience = z
  .strictObject(
    {
      contactBookUids: z.array(PublicId, { error: "contactBookUids must be an array of uids" }).max(50).default([]),
      filters: z.array(AudienceFilter, { error: "filters must be an array" }).max(20).default([]),
      phoneNumbers: z
        .array(Text("phoneNumber", 32), { error: "phoneNumbers must be an array of phone numbers" })
        .max(MAX_PHONE_NUMBERS, `phoneNumbers must have at most ${MAX_PHONE_NUMBERS} entries`)
        .default([]),
      segmentUid: z
        .string({ error: "segmentUid must be a segment uid" })
        .regex(SEGMENT_UID, "segmentUid must be a segment uid (seg_...)")
        .optional()
        .describe("A saved segment, evaluated when the broadcast starts; alone, without books, filters or numbers"),
    },
    { error: "audience must be an object with contactBookUids, filters, phoneNumbers or segmentUid" },
  )
  .superRefine((a, ctx) => {
    if (a.segmentUid !== undefined) {
      if (a.contactBookUids.length > 0 || a.filters.length > 0 || a.phoneNumbers.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["segmentUid"],
          message: "a segment audience takes no contactBookUids, filters or phoneNumbers (the segment's rules say who)",
        });
      }
    } else if (a.contactBookUids.length === 0 && a.phoneNumbers.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: "audience needs at least one contact book, phone number or a segmentUid",
      });
    }
  });
export type Audience = z.output<typeof Audience>;

export const VARIABLE_SOURCES = ["name", "phoneNumber", "email", "field", "constant"] as const;
export const VariableMapping = z
  .strictObject(
    {
      source: z.enum(VARIABLE_SOURCES, { error: `source must be one of ${VARIABLE_SOURCES.join(", ")}` }),
      key: FieldKey.optional().describe('The custom field, for source "field"'),
      value: Text("value", 1000).optional().describe('The text, for source "constant"'),
      default: Text("default", 1000).optional().describe("Used when the contact has no value"),
    },
    { error: "each variable must be {source, key?, value?, default?}" },
  )
  .superRefine((v, ctx) => {
    if (v.source === "field" && !v.key)
      ctx.addIssue({ code: "custom", path: ["key"], message: "a field variable needs key" });
    if (v.source === "constant" && v.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "a constant variable needs value" });
    }
  });
export type VariableMapping = z.output<typeof VariableMapping>;

export const Variables = z.strictObject(
  {
    body: z.array(VariableMapping, { error: "variables.body must be an array" }).max(100).default([]),
    header: z.array(VariableMapping, { error: "variables.header must be an array" }).max(1).default([]),
  },
  { error: "variables must be an object {body, header?}" },
);
export type Variables = z.output<typeof Variables>;

const TemplateRef = z.strictObject(
  {
    name: z
      .string({ error: "template.name must be a string" })
      .trim()
      .min(1, "template.name is required")
      .max(512, "template.name must be at most 512 characters"),
    language: z
      .string({ error: "template.language must be a string" })
      .trim()
      .min(2, "template.language is required (e.g. en or en_US)")
      .max(15, "template.language must be at most 15 characters"),
  },
  { error: "template must be an object with name and language" },
);

const IsoTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });
/** How far ahead a broadcast may be scheduled (docs/broadcasts.md "States"): a date past it is a typo, not a plan. */
const MAX_SCHEDULE_AHEAD_DAYS = 366;
const ScheduledAt = IsoTime.refine(
  (v) => Date.parse(v) <= Date.now() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000,
  `scheduledAt must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`,
);
export const MAX_PER_SECOND = 1000;
const MaxPerSecond = z
  .number({ error: "maxPerSecond must be a number" })
  .int("maxPerSecond must be an integer")
  .min(1, "maxPerSecond must be at least 1")
  .max(MAX_PER_SECOND, `maxPerSecond must be at most ${MAX_PER_SECOND}`);

type ObjectIssue = { code?: string; input?: unknown; keys?: readonly string[] };
const objectError = (missing: string) => (issue: ObjectIssue) =>
  issue.code === "unrecognized_keys"
    ? `Unknown broadcast field(s): ${(issue.keys ?? []).join(", ")}`
    : issue.input === undefined
      ? missing
      : "broadcast must be an object";

export const BroadcastCreateInput = z.strictObject(
  {
    name: ResourceName,
    template: TemplateRef,
    audience: Audience,
    variables: Variables.default({ body: [], header: [] }),
    scheduledAt: ScheduledAt.nullish(),
    maxPerSecond: MaxPerSecond.nullish(),
  },
  { error: objectError("broadcast is required: an object with name, template and audience") },
);
export type BroadcastCreateInput = z.output<typeof BroadcastCreateInput>;

const SenderId = z.string({ error: "senderId must be a phone number string" }).optional();

export const BroadcastCreateBody = z.object({ senderId: SenderId, broadcast: BroadcastCreateInput });

/**
 * What the new-broadcast page counts while it is being filled in (the dashboard's live count):
 * the create input's own fields, without the name and schedule a count does not need.
 */
export const BroadcastDraftBody = z.object({
  senderId: SenderId,
  broadcast: BroadcastCreateInput.pick({ template: true, audience: true, variables: true, maxPerSecond: true }),
});
export type BroadcastDraft = z.output<typeof BroadcastDraftBody>["broadcast"];

const UPDATE_FIELDS = "name, template, audience, variables, scheduledAt, maxPerSecond";
const NO_UPDATE_FIELD = `At least one broadcast field is required to update (${UPDATE_FIELDS})`;

export const BroadcastPatch = z
  .strictObject(
    {
      name: ResourceName.optional(),
      template: TemplateRef.optional(),
      audience: Audience.optional(),
      variables: Variables.optional(),
      scheduledAt: ScheduledAt.nullable().optional(),
      maxPerSecond: MaxPerSecond.nullable().optional(),
    },
    { error: objectError(NO_UPDATE_FIELD) },
  )
  .refine((c) => Object.values(c).some((v) => v !== undefined), NO_UPDATE_FIELD);
export type BroadcastPatch = z.output<typeof BroadcastPatch>;

export const BroadcastUpdateBody = z.object({ senderId: SenderId, broadcast: BroadcastPatch });

export const BroadcastListQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number (all the account's senders when omitted)"),
  status: BroadcastStatus.optional(),
});
export type BroadcastListQuery = z.output<typeof BroadcastListQuery>;

export const BroadcastSenderQuery = z.object({
  senderId: z.string().optional().describe("Sender phone number (any of the account's senders when omitted)"),
});

export const BroadcastSenderBody = z.object({ senderId: SenderId });

export const BroadcastStartBody = z.object({
  senderId: SenderId,
  scheduledAt: ScheduledAt.nullish().describe(
    `Start at this time instead of now (at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead; a past time starts now)`,
  ),
});

export const RecipientListQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number (any of the account's senders when omitted)"),
  status: RecipientStatus.optional(),
  search: z.string().max(32).optional().describe("Part of the phone number"),
});
export type RecipientListQuery = z.output<typeof RecipientListQuery>;

/** A path id: a value that is not an id we issue names no broadcast, and is not looked up. */
export const BroadcastUid = PublicId.describe("The broadcast's uid");

// Public shapes (OpenAPI "data" schemas).
export const EstimatePublic = z
  .object({
    recipients: z.number().int().describe("Recipients that will be sent to"),
    skipped: z.number().int().describe("Unique numbers skipped (blacklisted, invalid, missing a variable)"),
    cost: z.number().describe("recipients x the rate of the template's category"),
    currency: z.string(),
    durationSeconds: z.number().int().describe("Expected sending time at the pace and the sender's throughput"),
  })
  .meta({ id: "BroadcastEstimate" });
export type EstimatePublic = z.infer<typeof EstimatePublic>;

export const CountsPublic = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  skipped: z.number().int(),
  sending: z.number().int(),
  accepted: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  interrupted: z.number().int(),
  replied: z.number().int(),
});
export type CountsPublic = z.infer<typeof CountsPublic>;

export const BroadcastPublic = z
  .object({
    broadcastUid: z.string(),
    uid: z.string(),
    senderId: z.string().describe("The sender's phone number (E.164)"),
    phoneNumberId: z.string().nullable(),
    name: z.string(),
    status: BroadcastStatus,
    pauseReason: z.enum(PAUSE_REASONS).nullable().describe("Why the service paused it; null when a person did"),
    resumesAt: isoTimestamp().nullable().describe("When a broadcast paused for the messaging limit resumes by itself"),
    template: z.object({ name: z.string(), language: z.string(), category: z.string().nullable() }),
    audience: z.object({
      contactBookUids: z.array(z.string()),
      filters: z.array(AudienceFilter),
      phoneNumbers: z.array(z.string()),
      segmentUid: z.string().nullable().describe("The segment the audience was saved as; null: books and numbers"),
    }),
    variables: z.object({ body: z.array(VariableMapping), header: z.array(VariableMapping) }),
    scheduledAt: isoTimestamp().nullable(),
    maxPerSecond: z.number().int().nullable(),
    estimate: EstimatePublic.nullable().describe("Made when the broadcast starts; null before"),
    counts: CountsPublic,
    cost: z.number().describe("Billed so far"),
    startedAt: isoTimestamp().nullable(),
    completedAt: isoTimestamp().nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Broadcast" });
export type BroadcastPublic = z.infer<typeof BroadcastPublic>;

/** What "retry failed" answers: the broadcast and what became of its failed recipients. */
export const BroadcastRetryPublic = z
  .object({
    ...BroadcastPublic.shape,
    retry: z.object({
      requeued: z.number().int().describe("Failed recipients queued again now"),
      waiting: z
        .number()
        .int()
        .describe("Recipients failed with 131049 in the last 24 hours: not retried before retryableAt"),
      retryableAt: isoTimestamp().nullable().describe("When the first of the waiting recipients can be retried"),
    }),
  })
  .meta({ id: "BroadcastRetry" });
export type BroadcastRetryPublic = z.infer<typeof BroadcastRetryPublic>;

export const BroadcastListPublic = z.object({
  broadcasts: z.array(BroadcastPublic),
  items: z.array(BroadcastPublic),
  pagination: PageBlockSchema,
});

export const SkippedByReason = z.object({
  blacklisted: z.number().int(),
  invalid_number: z.number().int(),
  missing_variable: z.number().int(),
});

export const PreviewPublic = z.object({
  estimate: EstimatePublic,
  skippedByReason: SkippedByReason,
  samples: z.array(z.object({ phoneNumber: z.string(), text: z.string().describe("The rendered BODY") })),
});
export type PreviewPublic = z.infer<typeof PreviewPublic>;

export const RecipientPublic = z
  .object({
    phoneNumber: z.string(),
    status: RecipientStatus,
    skipReason: z.enum(SKIP_REASONS).nullable(),
    errorCode: z.number().int().nullable(),
    providerMessageId: z.string().nullable(),
    replied: z.boolean(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "BroadcastRecipient" });
export type RecipientPublic = z.infer<typeof RecipientPublic>;

export const RecipientListPublic = z.object({
  recipients: z.array(RecipientPublic),
  items: z.array(RecipientPublic),
  pagination: PageBlockSchema,
});

/** The recipients CSV (the dashboard's export): the list's filters, every page. */
export const RecipientExportQuery = RecipientListQuery.pick({ status: true, search: true });
export type RecipientExportQuery = z.output<typeof RecipientExportQuery>;
