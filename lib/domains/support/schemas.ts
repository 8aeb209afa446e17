// The support report's input and answer (docs/reports.md): figures of conversation periods
// (lib/domains/support/periods.ts) by day, week, sender, member or label, and inbound messages
// by weekday and hour.
import { z } from "zod";
import { OptionalDateOnly } from "@/lib/core/date-only-query";
import { CsatFiguresPublic } from "./csat-schemas";

const DAY_MS = 86_400_000;
const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The keys of the report by member that are no email (docs/reports.md "By member"); `memberId` takes them too. */
export const MEMBER_KEYS = ["api", "automation", "unanswered"] as const;
export type MemberKey = (typeof MEMBER_KEYS)[number];
const isMemberKey = (v: string): boolean => (MEMBER_KEYS as readonly string[]).includes(v.toLowerCase());

/** At most a year per report: the figures are percentiles over every period in the range. */
export const MAX_REPORT_DAYS = 366;

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const Range = {
  dateFrom: OptionalDateOnly.describe("From this day, YYYY-MM-DD (default: 29 days before dateTo)"),
  dateTo: OptionalDateOnly.describe("Up to and including this day, YYYY-MM-DD (default: today)"),
  timeZone: z
    .preprocess(blankAsAbsent, z.string().max(64).refine(isTimeZone, "must be an IANA time zone").optional())
    .describe("The days, weeks and hours are this zone's (default UTC), e.g. Europe/Berlin"),
};

function orderedRange(q: { dateFrom?: string; dateTo?: string }, ctx: z.RefinementCtx) {
  if (!q.dateFrom || !q.dateTo) return;
  const days = (Date.parse(q.dateTo) - Date.parse(q.dateFrom)) / DAY_MS + 1;
  if (days < 1) ctx.addIssue({ code: "custom", path: ["dateTo"], message: "dateTo is before dateFrom" });
  else if (days > MAX_REPORT_DAYS)
    ctx.addIssue({ code: "custom", path: ["dateTo"], message: `at most ${MAX_REPORT_DAYS} days from dateFrom` });
}

export const SUPPORT_GROUPS = ["day", "week", "sender", "member", "label"] as const;

/** The key of the group by label of conversations that carry none (no label name is empty). */
export const UNLABELLED = "";

export const SupportReportQuery = z
  .object({
    ...Range,
    groupBy: z
      .preprocess(blankAsAbsent, z.enum(SUPPORT_GROUPS).optional())
      .describe(
        'day (default), week (from Monday), sender, member (periods by who answered first, closes by who closed, responses by who replied), or label (the labels the conversation carries now: one with two labels counts in both, one with none in the group ""; the totals count it once)',
      ),
    label: z
      .preprocess(blankAsAbsent, z.string().trim().max(50, "label must be at most 50 characters").optional())
      .describe(
        "Only conversations carrying this label now (its name, whatever the case; LABEL_NOT_FOUND when the account has none so named)",
      ),
    memberId: z
      .preprocess(
        blankAsAbsent,
        z
          .string()
          .trim()
          .max(320, "memberId must be at most 320 characters")
          .refine(
            (v) => isMemberKey(v) || /^[^\s@]+@[^\s@]+$/.test(v),
            'memberId must be an email, "api", "automation" or "unanswered"',
          )
          .optional(),
      )
      .describe(
        'Only the figures of one member, by the email of a member of the account, or of a removed member whose figures remain, or one of the other keys of groupBy=member ("api": replies and closes through the API; "automation": closes by an automation rule; "unanswered": periods no person answered yet), each family keyed as groupBy=member keys it',
      ),
  })
  .superRefine(orderedRange);
export type SupportReportInput = z.infer<typeof SupportReportQuery>;

export const SupportHeatmapQuery = z.object(Range).superRefine(orderedRange);
export type SupportHeatmapInput = z.infer<typeof SupportHeatmapQuery>;

const Seconds = z.number().nullable();
const Durations = z.object({
  median: Seconds.describe("Median, in seconds; null when there is none"),
  p90: Seconds.describe("90th percentile, in seconds; null when there is none"),
  businessMedian: Seconds.describe(
    "Median in business seconds (only the account's business hours, as they were when each figure was written); null when there is none or the account has no business hours",
  ),
  businessP90: Seconds.describe("90th percentile in business seconds; null as businessMedian"),
});

const Figures = {
  conversations: z.number().int().describe("Conversation periods that began (first inbound) in the group"),
  reopened: z.number().int().describe("Of those, periods begun by an inbound after a close"),
  inbound: z.number().int().describe("Inbound messages of those periods"),
  outbound: z.number().int().describe("People's replies in those periods (members and the API; never bots or rules)"),
  firstResponse: Durations.describe("First response times of those periods"),
  nextResponse: Durations.describe("Later response times (a wait after a person had replied), answered in the group"),
  resolved: z.number().int().describe("Periods closed in the group"),
  resolution: Durations.describe("Resolution times (first inbound to close) of the periods closed in the group"),
  csat: CsatFiguresPublic.describe("CSAT survey answers received in the group (by member: who closed)"),
  slaBreaches: z
    .number()
    .int()
    .describe(
      "SLA targets missed in the group, by when the breach was recorded (by member: the member of the breached period's first response)",
    ),
};

export const SupportFiguresPublic = z.object(Figures).meta({ id: "SupportFigures" });
export type SupportFigures = z.infer<typeof SupportFiguresPublic>;

export const SupportReportPublic = z
  .object({
    dateFrom: z.string(),
    dateTo: z.string(),
    timeZone: z.string(),
    groupBy: z.enum(SUPPORT_GROUPS),
    senderId: z.string().nullable().describe("The sender reported on; null: every sender"),
    label: z.string().nullable().describe("The label filtered on (its name as the account spells it); null: none"),
    memberId: z.string().nullable().describe('The member filtered on (an email, or "api"); null: none'),
    businessHours: z
      .boolean()
      .describe("Whether the account has business hours set (without them every business figure is null)"),
    totals: SupportFiguresPublic,
    groups: z
      .array(
        z.object({
          key: z
            .string()
            .describe(
              'The day or week\'s first day (YYYY-MM-DD), the sender, the member\'s email ("api": replies and closes through the API; "automation": closes by an automation rule; "unanswered": periods no person answered yet), or the label\'s name ("": conversations without a label)',
            ),
          ...Figures,
        }),
      )
      .describe(
        "The groups, in order: by day and by week every day or week of the range, zeros where nothing happened; by member, sender and label those with any figure (by label a conversation counts in each of its labels, so the groups may add up to more than the totals)",
      ),
  })
  .meta({ id: "SupportReport" });
export type SupportReport = z.infer<typeof SupportReportPublic>;

export const SupportHeatmapPublic = z
  .object({
    dateFrom: z.string(),
    dateTo: z.string(),
    timeZone: z.string(),
    senderId: z.string().nullable(),
    cells: z
      .array(
        z.object({
          weekday: z.number().int().min(1).max(7).describe("ISO weekday: 1 Monday ... 7 Sunday"),
          hour: z.number().int().min(0).max(23),
          inbound: z.number().int(),
        }),
      )
      .describe("Every weekday and hour (168 cells), zero where nothing arrived"),
  })
  .meta({ id: "SupportHeatmap" });
export type SupportHeatmap = z.infer<typeof SupportHeatmapPublic>;
