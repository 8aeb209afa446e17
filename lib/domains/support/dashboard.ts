// The dashboard's Reports page (docs/reports.md "The dashboard's Reports page"): one period of the last N days
// in the account's time zone (its business hours' zone, else UTC) beside the N days before
// it, by day and by member, a table grouped as the page's group picker says (day, week, sender
// or label), and the inbound heatmap; and each of its tables as CSV. Every
// figure comes from the report functions the API answers with (report.ts), which check
// the member's "reports" permission. The page's label and member filters narrow every table
// but the heatmap (the API's filters, docs/reports.md "Filters"), and its figures are in
// business hours by default when the account set them (docs/reports.md "Business hours").
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { supportHeatmap, supportReport, todayIn } from "./report";
import { MEMBER_KEYS, type SupportFigures, type SupportHeatmap, type SupportReport } from "./schemas";

export const REPORT_PERIODS = [7, 30, 90] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const REPORT_TABLES = ["days", "weeks", "senders", "labels", "members", "heatmap"] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];
type GroupTable = Exclude<ReportTable, "heatmap">;

/** The groupings the page's group picker offers (the per-member table is always shown). */
export const REPORT_GROUPS = ["day", "week", "sender", "label"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** Each table's grouping of GET /reports/support and its CSV's first column. */
const GROUP_OF: Record<GroupTable, { groupBy: ReportGroup | "member"; column: string }> = {
  days: { groupBy: "day", column: "day" },
  weeks: { groupBy: "week", column: "week" },
  senders: { groupBy: "sender", column: "sender" },
  labels: { groupBy: "label", column: "label" },
  members: { groupBy: "member", column: "member" },
};

/** The CSV table of a grouping of the picker. */
export const tableOfGroup = (group: ReportGroup): GroupTable =>
  group === "day" ? "days" : group === "week" ? "weeks" : group === "sender" ? "senders" : "labels";

/** "day", "week", "sender", "label" as a grouping; anything else is the default, day. */
export function reportGroupOf(value: unknown): ReportGroup {
  return (REPORT_GROUPS as readonly unknown[]).includes(value) ? (value as ReportGroup) : "day";
}

const DAY_MS = 86_400_000;
const dayBefore = (date: string, days: number) => new Date(Date.parse(date) - days * DAY_MS).toISOString().slice(0, 10);

/** "7", "30", "90" as a period; anything else is the default, 30 days. */
export function reportPeriodOf(value: unknown): ReportPeriod {
  const n = Number(value);
  return (REPORT_PERIODS as readonly number[]).includes(n) ? (n as ReportPeriod) : 30;
}

export function reportTableOf(value: unknown): ReportTable {
  return (REPORT_TABLES as readonly unknown[]).includes(value) ? (value as ReportTable) : "days";
}

type Range = { dateFrom: string; dateTo: string; timeZone: string };

/** The last `days` days up to today in the account's zone, and the same number of days before them. */
export async function reportRanges(p: Principal, days: ReportPeriod, now = new Date()) {
  const timeZone = (await businessHoursOf(p.customerId))?.timezone ?? "UTC";
  const dateTo = todayIn(timeZone, now);
  const dateFrom = dayBefore(dateTo, days - 1);
  const current: Range = { dateFrom, dateTo, timeZone };
  const previous: Range = { dateFrom: dayBefore(dateFrom, days), dateTo: dayBefore(dateFrom, 1), timeZone };
  return { current, previous };
}

export type SupportDashboard = {
  /** Whether the account set business hours (the business figures are null otherwise). */
  businessHours: boolean;
  current: Range;
  previous: Range;
  totals: SupportFigures;
  previousTotals: SupportFigures;
  byDay: SupportReport["groups"];
  /** The groups of the picker's grouping (byDay again for "day"). */
  group: ReportGroup;
  byGroup: SupportReport["groups"];
  byMember: SupportReport["groups"];
  heatmap: SupportHeatmap["cells"];
};

/** The page's filters: a label's name and a member's email (or another key of the report by member, MEMBER_KEYS); absent: everyone. */
export type ReportFilters = { label?: string; memberId?: string };

/** What the page's filters offer: the account's labels and members, by name and email. */
export async function reportFilterOptions(p: Principal): Promise<{ labels: string[]; members: string[] }> {
  if (p.member) assertPermission(p, "reports");
  const [labels, members] = await Promise.all([
    db.label.findMany({ where: { customerId: p.customerId }, select: { name: true }, orderBy: { nameKey: "asc" } }),
    db.user.findMany({ where: { customerId: p.customerId }, select: { email: true }, orderBy: { email: "asc" } }),
  ]);
  return { labels: labels.map((l) => l.name), members: members.map((m) => m.email) };
}

/**
 * The filters of the page's address that name one of the options (a label deleted or a member
 * removed since the link was made is dropped rather than failing the page).
 */
export function reportFiltersOf(
  params: { label?: string; member?: string },
  options: { labels: string[]; members: string[] },
): ReportFilters {
  const label = options.labels.find((l) => l.toLowerCase() === params.label?.trim().toLowerCase());
  const wanted = params.member?.trim().toLowerCase();
  const memberId = MEMBER_KEYS.find((k) => k === wanted) ?? options.members.find((m) => m === wanted);
  return { ...(label ? { label } : {}), ...(memberId ? { memberId } : {}) };
}

export async function supportDashboard(
  p: Principal,
  days: ReportPeriod,
  now = new Date(),
  group: ReportGroup = "day",
  filters: ReportFilters = {},
): Promise<SupportDashboard> {
  const { current, previous } = await reportRanges(p, days, now);
  // Each report reads only what the page shows of it (report.ts ReportParts): the tiles are the
  // current period's totals beside the previous one's, the tables are groups.
  const [byDay, before, byMember, heatmap, byGroup] = await Promise.all([
    supportReport(p, undefined, { ...current, ...filters, groupBy: "day" }),
    supportReport(p, undefined, { ...previous, ...filters, groupBy: "day" }, "totals"),
    supportReport(p, undefined, { ...current, ...filters, groupBy: "member" }, "groups"),
    supportHeatmap(p, undefined, current),
    group === "day" ? null : supportReport(p, undefined, { ...current, ...filters, groupBy: group }, "groups"),
  ]);
  return {
    businessHours: byDay.businessHours,
    current,
    previous,
    totals: byDay.totals,
    previousTotals: before.totals,
    byDay: byDay.groups,
    group,
    byGroup: (byGroup ?? byDay).groups,
    byMember: byMember.groups,
    heatmap: heatmap.cells,
  };
}

const FIGURE_HEADER = [
  "conversations",
  "reopened",
  "inbound",
  "outbound",
  "firstResponseMedianSeconds",
  "firstResponseP90Seconds",
  "firstResponseBusinessMedianSeconds",
  "firstResponseBusinessP90Seconds",
  "nextResponseMedianSeconds",
  "nextResponseP90Seconds",
  "nextResponseBusinessMedianSeconds",
  "nextResponseBusinessP90Seconds",
  "resolved",
  "resolutionMedianSeconds",
  "resolutionP90Seconds",
  "resolutionBusinessMedianSeconds",
  "resolutionBusinessP90Seconds",
  "slaBreaches",
  "csatResponses",
  "csatHappyPercent",
];

const figureCells = (f: SupportFigures) => [
  f.conversations,
  f.reopened,
  f.inbound,
  f.outbound,
  f.firstResponse.median,
  f.firstResponse.p90,
  f.firstResponse.businessMedian,
  f.firstResponse.businessP90,
  f.nextResponse.median,
  f.nextResponse.p90,
  f.nextResponse.businessMedian,
  f.nextResponse.businessP90,
  f.resolved,
  f.resolution.median,
  f.resolution.p90,
  f.resolution.businessMedian,
  f.resolution.businessP90,
  f.slaBreaches,
  f.csat.responses,
  f.csat.score,
];

/**
 * One table of the page as CSV (seconds, empty where there is no figure; each duration both in
 * all hours and in business hours), with the page's filters (not the heatmap's), and its file name.
 */
export async function supportCsv(
  p: Principal,
  table: ReportTable,
  days: ReportPeriod,
  now = new Date(),
  filters: ReportFilters = {},
): Promise<{ csv: string; fileName: string }> {
  const { current } = await reportRanges(p, days, now);
  const fileName = `support-${table}-${current.dateFrom}-to-${current.dateTo}.csv`;
  if (table === "heatmap") {
    const { cells } = await supportHeatmap(p, undefined, current);
    const rows = cells.map((c) => [c.weekday, c.hour, c.inbound]);
    return { csv: stringify([["weekday", "hour", "inbound"], ...rows]), fileName };
  }
  const { groupBy, column } = GROUP_OF[table];
  const report = await supportReport(p, undefined, { ...current, ...filters, groupBy }, "groups");
  // By label, the conversations without one are the row with an empty label (docs/reports.md "By label").
  const rows = report.groups.map((g) => [g.key, ...figureCells(g)]);
  return { csv: stringify([[column, ...FIGURE_HEADER], ...rows]), fileName };
}
