// One zod module for segments, saved audiences (docs/automation.md "Segments"): the rules (the
// broadcast audience grammar plus labels, lastInboundWithin and optedIn), the create and
// update bodies, and the public shapes. The API, the dashboard and the OpenAPI document use these.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { LabelName } from "@/lib/domains/labels/schemas";
import { AudienceFilter, SEGMENT_UID } from "./schemas";

/**
 * An ISO 8601 duration PostgreSQL reads as an interval: weeks alone (P2W), or years, months,
 * days and a time part (P30D, PT12H, P1M15D). A bare P or a dangling T is no duration.
 */
export const ISO_DURATION =
  /^P(?:\d{1,4}W|(?=\d|T\d)(?:\d{1,4}Y)?(?:\d{1,4}M)?(?:\d{1,5}D)?(?:T(?=\d)(?:\d{1,6}H)?(?:\d{1,6}M)?(?:\d{1,8}S)?)?)$/;

/** The longest lastInboundWithin: ten years (a longer one reaches before PostgreSQL's timestamps). */
export const LAST_INBOUND_MAX_DAYS = 3_660;

/** A duration ISO_DURATION accepts, in days (a year as 366 days and a month as 31: an upper bound). */
export function isoDurationDays(v: string): number {
  const [, date = "", time = ""] = /^P([^T]*)(?:T(.*))?$/.exec(v) ?? [];
  const part = (s: string, unit: string) => Number(new RegExp(`(\\d+)${unit}`).exec(s)?.[1] ?? 0);
  return (
    part(date, "Y") * 366 +
    part(date, "M") * 31 +
    part(date, "W") * 7 +
    part(date, "D") +
    part(time, "H") / 24 +
    part(time, "M") / 1_440 +
    part(time, "S") / 86_400
  );
}

export const SEGMENT_LABELS_MAX = 20;

export const SegmentRules = z.strictObject(
  {
    contactBookUids: z
      .array(PublicId, { error: "contactBookUids must be an array of uids" })
      .max(50)
      .default([])
      .describe("Contact books to draw from; none: every number the account knows (books and conversations)"),
    filters: z.array(AudienceFilter, { error: "filters must be an array" }).max(20).default([]),
    labels: z
      .array(LabelName, { error: "labels must be an array of label names" })
      .max(SEGMENT_LABELS_MAX, `labels must have at most ${SEGMENT_LABELS_MAX} entries`)
      .default([])
      .describe("Label names the contact carries, all of them (matched whatever the case)"),
    lastInboundWithin: z
      .string({ error: "lastInboundWithin must be an ISO 8601 duration such as P30D" })
      .regex(ISO_DURATION, "lastInboundWithin must be an ISO 8601 duration such as P30D, P2W or PT12H")
      .refine((v) => isoDurationDays(v) <= LAST_INBOUND_MAX_DAYS, "lastInboundWithin must be at most ten years")
      .nullish()
      .transform((v) => v ?? null)
      .describe("The contact wrote within this ISO 8601 duration of the count or the start (e.g. P30D)"),
    optedIn: z
      .boolean({ error: "optedIn must be true or false" })
      .default(false)
      .describe("true: only numbers on none of the account's blacklists"),
  },
  { error: "rules must be an object {contactBookUids?, filters?, labels?, lastInboundWithin?, optedIn?}" },
);
export type SegmentRules = z.output<typeof SegmentRules>;

export const SegmentInput = z.strictObject(
  { name: ResourceName, rules: SegmentRules.default(SegmentRules.parse({})) },
  { error: "segment is required: an object with name and rules" },
);
export type SegmentInput = z.output<typeof SegmentInput>;

const NO_FIELD = "At least one segment field is required to update (name, rules)";
export const SegmentPatch = z
  .strictObject({ name: ResourceName.optional(), rules: SegmentRules.optional() }, { error: NO_FIELD })
  .refine((s) => s.name !== undefined || s.rules !== undefined, NO_FIELD);
export type SegmentPatch = z.output<typeof SegmentPatch>;

export const SegmentCreateBody = z.strictObject(
  { segment: SegmentInput },
  { error: "the body must be {segment: {...}}" },
);
export const SegmentUpdateBody = z.strictObject(
  { segment: SegmentPatch },
  { error: "the body must be {segment: {...}}" },
);

/** The segment form's live count of rules not saved yet (POST /api/dashboard/segments/count). */
export const SegmentCountBody = z.strictObject({ rules: SegmentRules }, { error: "the body must be {rules: {...}}" });

/** A segment uid (seg_...); the router answers SEGMENT_NOT_FOUND for anything else. */
export const SegmentUid = z.string().regex(SEGMENT_UID, "is not a segment uid").describe("The segment's uid");
export const SegmentListQuery = PageQuery;

export const SegmentRulesPublic = z.object({
  contactBookUids: z.array(z.string()),
  filters: z.array(AudienceFilter),
  labels: z.array(z.string()),
  lastInboundWithin: z.string().nullable(),
  optedIn: z.boolean(),
});

export const SegmentPublic = z
  .object({
    segmentUid: z.string(),
    uid: z.string(),
    name: z.string(),
    rules: SegmentRulesPublic,
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Segment" });
export type SegmentPublic = z.infer<typeof SegmentPublic>;

export const SegmentListPublic = z.object({
  segments: z.array(SegmentPublic),
  items: z.array(SegmentPublic),
  pagination: PageBlockSchema,
});
export const SegmentDeletedPublic = z.object({ segmentUid: z.string(), deleted: z.literal(true) });
export const SegmentCountPublic = z.object({
  count: z
    .number()
    .int()
    .describe("Unique phone numbers the rules select now: the recipients a broadcast started now would get"),
});
