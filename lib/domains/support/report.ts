// GET /reports/support and /reports/support/heatmap (docs/reports.md): SQL over the periods
// and responses periods.ts writes, the CSAT answers and the SLA breaches, by the (customerId,
// startedAt | resolvedAt | respondedAt | breachedAt) indexes, one statement per figure family
// with GROUPING SETS for the groups and the totals (by label, a row counts in each of its
// conversation's labels, so the totals come from the rows once, beside the groups). Each
// duration also has its business-hours variant, read from the business seconds periods.ts wrote
// beside it; the `label` and `memberId` filters narrow every family (docs/reports.md "Filters").
// A caller may ask for the groups alone or the totals alone (ReportParts: the dashboard).
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { assertDatabaseKnowsZone } from "@/lib/domains/business-hours/database-zone";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { memberByEmail } from "@/lib/domains/members/service";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { csatFigures } from "./csat-report";
import { SATISFIED } from "./csat-schemas";
import {
  MAX_REPORT_DAYS,
  MEMBER_KEYS,
  type SupportFigures,
  type SupportHeatmap,
  type SupportHeatmapInput,
  type SupportReport,
  type SupportReportInput,
  UNLABELLED,
} from "./schemas";

const DAY_MS = 86_400_000;

/** Today's date in a time zone, YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

type Range = { dateFrom: string; dateTo: string; timeZone: string };

/** The range asked for, or the 30 days up to today in the zone. */
export function rangeOf(q: { dateFrom?: string; dateTo?: string; timeZone?: string }, now = new Date()): Range {
  const timeZone = q.timeZone ?? "UTC";
  const dateTo = q.dateTo ?? (q.dateFrom && q.dateFrom > todayIn(timeZone, now) ? q.dateFrom : todayIn(timeZone, now));
  const dateFrom = q.dateFrom ?? new Date(Date.parse(dateTo) - 29 * DAY_MS).toISOString().slice(0, 10);
  // The schema checks the length only when both days are given; dateFrom alone ends today.
  if ((Date.parse(dateTo) - Date.parse(dateFrom)) / DAY_MS + 1 > MAX_REPORT_DAYS) {
    const message = `at most ${MAX_REPORT_DAYS} days up to dateTo (today when absent)`;
    throw new ApiError("VALIDATION_FAILED", `query.dateFrom: ${message}`, {
      fields: [{ path: "query.dateFrom", message }],
    });
  }
  return { dateFrom, dateTo, timeZone };
}

/** The UTC instants of the range's first midnight and of the midnight after its last day, in the zone. */
const bounds = (r: Range) => ({
  lo: Prisma.sql`((${r.dateFrom}::date)::timestamp AT TIME ZONE ${r.timeZone}) AT TIME ZONE 'UTC'`,
  hi: Prisma.sql`((${r.dateTo}::date + 1)::timestamp AT TIME ZONE ${r.timeZone}) AT TIME ZONE 'UTC'`,
});

/** A UTC timestamp(3) column as the zone's wall-clock time. */
const local = (column: Prisma.Sql, timeZone: string) =>
  Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})`;

/** Who a row belongs to when grouped by member, per family of figures (docs/reports.md "By member"). */
const MEMBER_KEY = {
  started: Prisma.sql`COALESCE(t."firstResponder", 'unanswered')`,
  resolved: Prisma.sql`COALESCE(t."closedBy", 'api')`,
  responses: Prisma.sql`t."responder"`,
  csat: Prisma.sql`COALESCE(t."memberEmail", 'api')`,
  // A breach belongs to its period's member, as the period's own figures (docs/reports.md "By member").
  breaches: Prisma.sql`COALESCE((SELECT sp."firstResponder" FROM "SupportPeriod" sp WHERE sp."id" = t."periodId"), 'unanswered')`,
} as const;
type Family = keyof typeof MEMBER_KEY;
/**
 * How a family's row names the labels it counts in (docs/reports.md "By label"). Periods and
 * responses carry their conversation's as the id of the account's set of them ("labelSetId", kept
 * by triggers on ConversationLabel: migrations 20261130152944_support_label_ids and
 * 20261203175827_support_label_sets), eight bytes the figures indexes carry where the ids, unbounded
 * in number, cannot; the sets' ids are read from SupportLabelSet, a row per combination of labels
 * the account has used. A join to ConversationLabel per row was most of the label report's time at
 * 1M conversations, and reading the ids from the table a fifth of its next responses'
 * (docs/benchmarks.md "The next limits"). CSAT answers and breaches are few: read by their conversation.
 */
const CARRIES_LABEL_SET: Record<Family, boolean> = {
  started: true,
  resolved: true,
  responses: true,
  csat: false,
  breaches: false,
};
/**
 * The columns a family's figures read (its `select` in supportReport): by label the range's rows
 * are kept for two passes (a MATERIALIZED CTE), and keeping only these rather than whole rows
 * took 15% off the next responses' statement and 30% off the whole report's p99 at 1M
 * conversations (docs/benchmarks.md "The next limits").
 */
const FIGURE_COLUMNS: Record<Family, string[]> = {
  started: ["reopened", "inboundCount", "replyCount", "firstResponseSeconds", "firstResponseBusinessSeconds"],
  resolved: ["resolutionSeconds", "resolutionBusinessSeconds"],
  responses: ["seconds", "businessSeconds"],
  csat: ["score"],
  breaches: [],
};
const TABLE: Record<Family, string> = {
  started: `"SupportPeriod"`,
  resolved: `"SupportPeriod"`,
  responses: `"SupportResponse"`,
  csat: `"CsatSurvey"`,
  breaches: `"SlaBreach"`,
};

/**
 * The range's days or weeks (from Monday) in the zone, as the CTE `calendar`: "starts", the UTC
 * instants of their first midnights in order, and "labels", their dates (YYYY-MM-DD). A row's day
 * or week is then its position among the starts (width_bucket: a binary search of at most 366
 * instants), where turning every row's instant into the zone's time and formatting it was most of
 * a year's report: 0.7 s of 1.1M periods on PostgreSQL (docs/benchmarks.md "The next limits").
 * The starts are converted as the range's bounds are, so a row is in the same day either way.
 */
export const calendarOf = (unit: "day" | "week", r: Range) => Prisma.sql`calendar AS (
  SELECT array_agg((d AT TIME ZONE ${r.timeZone}) AT TIME ZONE 'UTC' ORDER BY d) AS "starts",
    array_agg(to_char(d, 'YYYY-MM-DD') ORDER BY d) AS "labels"
  FROM generate_series(date_trunc(${unit}, ${r.dateFrom}::date::timestamp), ${r.dateTo}::date::timestamp,
    ${unit === "week" ? "1 week" : "1 day"}::interval) d)`;

/**
 * The keys of the range's days or weeks (from the Monday on or before dateFrom), as calendarOf
 * names them: the report answers every one, zero where nothing happened, as the heatmap answers
 * all 168 hours, so a chart or a CSV by day has no holes (docs/reports.md "GET /reports/support").
 */
export function calendarKeys(unit: "day" | "week", r: Pick<Range, "dateFrom" | "dateTo">): string[] {
  const first = Date.parse(r.dateFrom);
  const step = unit === "week" ? 7 * DAY_MS : DAY_MS;
  const start = unit === "week" ? first - ((new Date(first).getUTCDay() + 6) % 7) * DAY_MS : first;
  const keys: string[] = [];
  for (let t = start; t <= Date.parse(r.dateTo); t += step) keys.push(new Date(t).toISOString().slice(0, 10));
  return keys;
}

/** A row's group; by day and week its position in `calendar` (calendarOf), named by grouped(). */
function keyOf(
  groupBy: Exclude<SupportReportInput["groupBy"], "label">,
  family: Family,
  column: Prisma.Sql,
): Prisma.Sql {
  // By sender the groups are the sender ids, named after the aggregate (supportReport): a look-up of
  // the number per row took as long as the rest of the statement at 100,000 periods a month.
  if (groupBy === "sender") return Prisma.sql`t."senderId"`;
  if (groupBy === "member") return MEMBER_KEY[family];
  return Prisma.sql`width_bucket(${column}, (SELECT "starts" FROM calendar))`;
}

type Pct = { median: number | null; p90: number | null; businessMedian: number | null; businessP90: number | null };
/** A family's percentiles as its statement names them (the business pair under bmedian and bp90). */
type PctRow = { median: number | null; p90: number | null; bmedian: number | null; bp90: number | null };
const seconds = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);

/** The percentiles of a duration column and of its business twin, as `grouped` selects them. */
const percentiles = (column: string, business: string) => {
  const [c, b] = [Prisma.raw(`g."${column}"`), Prisma.raw(`g."${business}"`)];
  return Prisma.sql`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${c}) AS median,
    percentile_cont(0.9) WITHIN GROUP (ORDER BY ${c}) AS p90,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY ${b}) AS bmedian,
    percentile_cont(0.9) WITHIN GROUP (ORDER BY ${b}) AS bp90`;
};

/** Without business hours set now, the business figures are null (docs/reports.md "Business hours"). */
const pctOf = (row: PctRow, business: boolean): Pct => ({
  median: seconds(row.median),
  p90: seconds(row.p90),
  businessMedian: business ? seconds(row.bmedian) : null,
  businessP90: business ? seconds(row.bp90) : null,
});

/** The report's filters as a condition on a family's rows (`t`), or nothing. */
type Filters = { customerId: string; labelId: string | null; member: string | null };
function filtersOf(family: Family, f: Filters): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.labelId !== null) {
    parts.push(
      CARRIES_LABEL_SET[family]
        ? Prisma.sql`t."labelSetId" IN (SELECT fs."id" FROM "SupportLabelSet" fs
            WHERE fs."customerId" = ${f.customerId} AND ${f.labelId} = ANY(fs."labelIds"))`
        : Prisma.sql`EXISTS (SELECT 1 FROM "ConversationLabel" fl
            WHERE fl."conversationId" = t."conversationId" AND fl."labelId" = ${f.labelId})`,
    );
  }
  if (f.member !== null) parts.push(Prisma.sql`${MEMBER_KEY[family]} = ${f.member}`);
  return parts.length === 0 ? Prisma.empty : Prisma.sql` AND ${Prisma.join(parts, " AND ")}`;
}

/**
 * A removed member of this account: their email names figures of the account (a response, a
 * first response or a close), which stay after the removal. Read only for an email that is no
 * current member; another account's member names none of this account's figures.
 */
async function formerMember(customerId: string, email: string): Promise<string | null> {
  const key = email.trim().toLowerCase();
  const rows = await db.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "SupportResponse" WHERE "customerId" = ${customerId} AND "responder" = ${key})
      OR EXISTS (SELECT 1 FROM "SupportPeriod" WHERE "customerId" = ${customerId}
        AND ("firstResponder" = ${key} OR "closedBy" = ${key})) AS found`;
  return rows[0]?.found ? key : null;
}

/**
 * The filters named by the query, each checked in the account: a label by name (whatever the
 * case; LABEL_NOT_FOUND otherwise), a member by email (a current or removed member of this
 * account; VALIDATION_FAILED on `memberId` otherwise) or another key of the report by member
 * (MEMBER_KEYS: "api", "automation", "unanswered").
 */
async function resolveFilters(
  customerId: string,
  q: SupportReportInput,
): Promise<Filters & { labelName: string | null; memberId: string | null }> {
  // By Label.nameKey (the name trimmed and in lower case, as lib/domains/labels folds it; that
  // domain reaches this one through conversations, so the fold is written here again).
  const label =
    q.label === undefined
      ? null
      : await db.label.findFirst({
          where: { customerId, nameKey: q.label.trim().toLowerCase() },
          select: { id: true, name: true },
        });
  if (q.label !== undefined && !label) {
    throw new ApiError("LABEL_NOT_FOUND", `No label named "${q.label}" in this account`, { names: [q.label] });
  }
  let member: string | null = null;
  if (q.memberId !== undefined) {
    const key = q.memberId.toLowerCase();
    if ((MEMBER_KEYS as readonly string[]).includes(key)) member = key;
    else {
      const found = await memberByEmail(customerId, q.memberId);
      const email = found?.email ?? (await formerMember(customerId, q.memberId));
      if (!email) {
        const message = `${q.memberId} is not a member of this account`;
        throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "memberId", message }] });
      }
      member = email;
    }
  }
  return { customerId, labelId: label?.id ?? null, labelName: label?.name ?? null, member, memberId: member };
}

type Grouped<T> = { key: string | null; total: number } & T;

/**
 * What a caller of supportReport reads: its groups and its totals (the API), or one of them. Each
 * is its own pass of percentile sorts over the range's rows, most of a report's time at 1M
 * conversations (docs/benchmarks.md "The next limits"), so the dashboard asks for the previous
 * period's totals alone and for the tables' groups alone (dashboard.ts). The part not asked for
 * is answered empty: no groups, or totals of zeros.
 */
export type ReportParts = "both" | "groups" | "totals";

/**
 * Runs one of the report's statements. A test passes its own to read the statements' plans
 * (report-indexes.test.ts: the next responses and the resolutions are index-only scans).
 */
export type RunStatement = (sql: Prisma.Sql) => Promise<unknown[]>;
const runStatement: RunStatement = (sql) => db.$queryRaw<unknown[]>(sql);

/** What every family's statement shares: the account, the grouping, the range, the parts asked for and the runner. */
type Shape = {
  customerId: string;
  groupBy: SupportReportInput["groupBy"];
  r: Range;
  parts: ReportParts;
  run: RunStatement;
};

/**
 * Groups and totals of one family of figures, or the `parts` asked for (GROUPING = 1 on the totals' row; "groupKey" since
 * SlaBreach has a "key"). By label a row counts in each label id its conversation carries now
 * (none: one row with a null key, the "" group), so the totals are a second pass over the rows
 * once rather than the sum of the groups (docs/reports.md "By label"); supportReport names the ids.
 */
async function grouped<T>(
  family: Family,
  column: string,
  select: Prisma.Sql,
  where: Prisma.Sql,
  { customerId, groupBy, r, parts, run }: Shape,
): Promise<Grouped<T>[]> {
  const rows = (sql: Prisma.Sql) => run(sql) as Promise<Grouped<T>[]>;
  const col = Prisma.raw(`t."${column}"`);
  const { lo, hi } = bounds(r);
  const table = Prisma.raw(TABLE[family]);
  const inRange = Prisma.sql`${where} AND ${col} >= ${lo} AND ${col} < ${hi}`;
  // The totals alone: whatever the grouping, one pass over the range without a group key (by
  // label, each row once).
  if (parts === "totals") {
    return rows(Prisma.sql`
      SELECT NULL AS key, 1 AS total, ${select} FROM (SELECT t.* FROM ${table} t WHERE ${inRange}) g`);
  }
  if (groupBy === "label") {
    const figureColumns = Prisma.raw(FIGURE_COLUMNS[family].map((c) => `t."${c}", `).join(""));
    // The range's rows read once (MATERIALIZED) for both the groups and the totals: reading them
    // twice was a third of the statement's time at 1M conversations (docs/benchmarks.md "Support reports").
    // The groups alone read them once anyway: kept, they would only be written and read back.
    const kept = parts === "both" ? Prisma.sql`MATERIALIZED` : Prisma.sql`NOT MATERIALIZED`;
    // A row keeps its label set's id, or its conversation's label ids (CARRIES_LABEL_SET), and is
    // joined to the set's ids after the scan. A row without labels is one row of the null key
    // (ARRAY[NULL]). The labels are unnested in the select list (ProjectSet): as a LATERAL join, a
    // function scan per row, the next responses' statement took 12% longer at 1M conversations
    // (docs/benchmarks.md "Support reports").
    const labels = CARRIES_LABEL_SET[family]
      ? {
          kept: Prisma.sql`t."labelSetId"`,
          ids: Prisma.sql`ls."labelIds"`,
          join: Prisma.sql`LEFT JOIN "SupportLabelSet" ls ON ls."customerId" = ${customerId} AND ls."id" = k."labelSetId"`,
        }
      : {
          kept: Prisma.sql`ARRAY(SELECT cl."labelId" FROM "ConversationLabel" cl
            WHERE cl."conversationId" = t."conversationId") AS "labelIds"`,
          ids: Prisma.sql`k."labelIds"`,
          join: Prisma.empty,
        };
    return rows(Prisma.sql`
      WITH k AS ${kept} (SELECT ${figureColumns} ${labels.kept} FROM ${table} t WHERE ${inRange})
      SELECT g."labelId" AS key, 0 AS total, ${select}
      FROM (SELECT k.*, unnest(CASE WHEN cardinality(${labels.ids}) > 0 THEN ${labels.ids}
        ELSE ARRAY[NULL]::text[] END) AS "labelId" FROM k ${labels.join}) g
      GROUP BY g."labelId"
      ${parts === "both" ? Prisma.sql`UNION ALL SELECT NULL, 1, ${select} FROM k g` : Prisma.empty}`);
  }
  const by = groupBy ?? "day";
  const calendar = by === "day" || by === "week";
  return rows(Prisma.sql`
    ${calendar ? Prisma.sql`WITH ${calendarOf(by, r)}` : Prisma.empty}
    SELECT ${calendar ? Prisma.sql`(SELECT "labels" FROM calendar)[g."groupKey"]` : Prisma.sql`g."groupKey"`} AS key,
      GROUPING(g."groupKey")::int AS total, ${select}
    FROM (SELECT t.*, ${keyOf(by, family, col)} AS "groupKey" FROM ${table} t WHERE ${inRange}) g
    GROUP BY ${parts === "both" ? Prisma.sql`GROUPING SETS ((g."groupKey"), ())` : Prisma.sql`g."groupKey"`}`);
}

const none = (): Pct => ({ median: null, p90: null, businessMedian: null, businessP90: null });
const empty = (): SupportFigures => ({
  conversations: 0,
  reopened: 0,
  inbound: 0,
  outbound: 0,
  firstResponse: none(),
  nextResponse: none(),
  resolved: 0,
  resolution: none(),
  csat: { responses: 0, score: null },
  slaBreaches: 0,
});

export async function supportReport(
  p: Principal,
  sender: Sender | undefined,
  q: SupportReportInput,
  parts: ReportParts = "both",
  run: RunStatement = runStatement,
): Promise<SupportReport> {
  // A member needs the permission (the dashboard); a token's was checked by the router.
  if (p.member) assertPermission(p, "reports");
  const r = rangeOf(q);
  await assertDatabaseKnowsZone(r.timeZone, "query.timeZone");
  const groupBy = q.groupBy ?? "day";
  const [filters, hours] = await Promise.all([resolveFilters(p.customerId, q), businessHoursOf(p.customerId)]);
  const business = hours !== null;
  const scope = sender
    ? Prisma.sql`t."customerId" = ${p.customerId} AND t."senderId" = ${sender.id}`
    : Prisma.sql`t."customerId" = ${p.customerId}`;
  type Started = PctRow & { conversations: number; reopened: number; inbound: number; outbound: number };
  type Spread = PctRow & { n: number };
  type Csat = { n: number; satisfied: number };
  const shape: Shape = { customerId: p.customerId, groupBy, r, parts, run };
  const [started, resolved, next, csat, breaches, named] = await Promise.all([
    grouped<Started>(
      "started",
      "startedAt",
      Prisma.sql`count(*)::int AS conversations, (count(*) FILTER (WHERE g."reopened"))::int AS reopened,
        COALESCE(sum(g."inboundCount"), 0)::int AS inbound, COALESCE(sum(g."replyCount"), 0)::int AS outbound,
        ${percentiles("firstResponseSeconds", "firstResponseBusinessSeconds")}`,
      Prisma.sql`${scope}${filtersOf("started", filters)}`,
      shape,
    ),
    grouped<Spread>(
      "resolved",
      "resolvedAt",
      Prisma.sql`count(*)::int AS n, ${percentiles("resolutionSeconds", "resolutionBusinessSeconds")}`,
      Prisma.sql`${scope}${filtersOf("resolved", filters)}`,
      shape,
    ),
    grouped<Spread>(
      "responses",
      "respondedAt",
      Prisma.sql`count(*)::int AS n, ${percentiles("seconds", "businessSeconds")}`,
      Prisma.sql`${scope} AND NOT t."first"${filtersOf("responses", filters)}`,
      shape,
    ),
    // Survey answers by when they came (docs/reports.md "CSAT"); by member: who closed.
    grouped<Csat>(
      "csat",
      "respondedAt",
      Prisma.sql`count(*)::int AS n, (count(*) FILTER (WHERE g."score" = ${SATISFIED}))::int AS satisfied`,
      Prisma.sql`${scope} AND t."score" IS NOT NULL${filtersOf("csat", filters)}`,
      shape,
    ),
    // SLA breaches by when they were recorded (docs/reports.md "SLA breaches in the report").
    grouped<{ n: number }>(
      "breaches",
      "breachedAt",
      Prisma.sql`count(*)::int AS n`,
      Prisma.sql`${scope}${filtersOf("breaches", filters)}`,
      shape,
    ),
    // The groups by sender and by label are ids, named here.
    parts === "totals"
      ? []
      : groupBy === "sender"
        ? db.sender
            .findMany({ where: { customerId: p.customerId }, select: { id: true, phoneNumber: true } })
            .then((rows) => rows.map((s) => [s.id, s.phoneNumber] as const))
        : groupBy === "label"
          ? db.label
              .findMany({ where: { customerId: p.customerId }, select: { id: true, name: true } })
              .then((rows) => rows.map((l) => [l.id, l.name] as const))
          : [],
  ]);
  const names = new Map<string, string>(named);
  const totals = empty();
  const groups = new Map<string, SupportFigures>();
  /** A group's key as the report names it; null for a label deleted while the report ran (its rows are in the totals). */
  const nameOf = (key: string | null): string | null => {
    if (groupBy === "sender") return names.get(key ?? "") ?? "";
    if (groupBy === "label" && key !== null) return names.get(key) ?? null;
    return key ?? UNLABELLED;
  };
  const figuresOf = (row: { key: string | null; total: number }) => {
    if (row.total === 1) return totals;
    const key = nameOf(row.key);
    if (key === null) return empty();
    const found = groups.get(key) ?? empty();
    groups.set(key, found);
    return found;
  };
  for (const row of started) {
    Object.assign(figuresOf(row), {
      conversations: row.conversations,
      reopened: row.reopened,
      inbound: row.inbound,
      outbound: row.outbound,
      firstResponse: pctOf(row, business),
    });
  }
  for (const row of resolved) Object.assign(figuresOf(row), { resolved: row.n, resolution: pctOf(row, business) });
  for (const row of next) figuresOf(row).nextResponse = pctOf(row, business);
  for (const row of csat) figuresOf(row).csat = csatFigures(row.n, row.satisfied);
  for (const row of breaches) figuresOf(row).slaBreaches = row.n;
  if (parts !== "totals" && (groupBy === "day" || groupBy === "week")) {
    for (const key of calendarKeys(groupBy, r)) if (!groups.has(key)) groups.set(key, empty());
  }
  return {
    ...r,
    groupBy,
    senderId: sender?.phoneNumber ?? null,
    label: filters.labelName,
    memberId: filters.memberId,
    businessHours: business,
    totals,
    groups: [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, figures]) => ({ key, ...figures })),
  };
}

export async function supportHeatmap(
  p: Principal,
  sender: Sender | undefined,
  q: SupportHeatmapInput,
): Promise<SupportHeatmap> {
  if (p.member) assertPermission(p, "reports");
  const r = rangeOf(q);
  await assertDatabaseKnowsZone(r.timeZone, "query.timeZone");
  const { lo, hi } = bounds(r);
  // Summed from the inbound counts per sender and 15 minutes of UTC that triggers keep
  // (SupportInboundCount, lib/domains/support/inbound-counts.ts): a year of a large account's
  // inbound is 5M messages, which took 1.1 s to count, against 35,000 buckets a sender. Only the
  // buckets are turned into the zone's weekday and hour: every zone's offset since 1980 is a multiple of 15
  // minutes, so a bucket lies in one hour of the zone, and the range's bounds are whole buckets.
  const when = local(Prisma.sql`q.bucket`, r.timeZone);
  const rows = await db.$queryRaw<{ weekday: number; hour: number; inbound: number }[]>`
    SELECT extract(isodow FROM ${when})::int AS weekday, extract(hour FROM ${when})::int AS hour, sum(q.n)::int AS inbound
    FROM (SELECT t."bucket", sum(t."inbound") AS n
      FROM "SupportInboundCount" t
      WHERE t."customerId" = ${p.customerId} ${sender ? Prisma.sql`AND t."senderId" = ${sender.id}` : Prisma.empty}
        AND t."bucket" >= ${lo} AND t."bucket" < ${hi}
      GROUP BY 1) q
    GROUP BY 1, 2`;
  const counts = new Map(rows.map((row) => [`${row.weekday}:${row.hour}`, row.inbound]));
  const cells = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let hour = 0; hour < 24; hour++) cells.push({ weekday, hour, inbound: counts.get(`${weekday}:${hour}`) ?? 0 });
  }
  return { ...r, senderId: sender?.phoneNumber ?? null, cells };
}
