// Support reports (docs/reports.md "The dashboard's Reports page"): the chosen period's figures beside the period
// before it, charts by day, the per-member table, a table by the chosen grouping (day, week,
// sender or label), the weekday-hour heatmap, and each table as CSV. The label and member
// filters narrow every figure but the heatmap; durations are in business hours by default when
// the account set its hours, and the Hours toggle switches to every hour (docs/reports.md
// "Business hours").

import type { Metadata } from "next";
import type { ReactNode } from "react";
import { CsvExportLink } from "@/components/dashboard/csv-export-link";
import { DataTable, type TableColumn } from "@/components/dashboard/data-table";
import { type DayPoint, SupportTimesChart, SupportVolumeChart } from "@/components/dashboard/support-charts";
import { SupportHeatmapTable } from "@/components/dashboard/support-heatmap";
import { CardSection } from "@/components/ui/card-section";
import { buttonSecondary, card, input, label as labelClass, link, muted, td } from "@/components/ui/classes";
import { formatDuration } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { formatCount } from "@/lib/core/count";
import { requirePermission } from "@/lib/dashboard/guard";
import {
  REPORT_GROUPS,
  REPORT_PERIODS,
  type ReportFilters,
  type ReportGroup,
  type ReportPeriod,
  type ReportTable,
  reportFilterOptions,
  reportFiltersOf,
  reportGroupOf,
  reportPeriodOf,
  supportDashboard,
  tableOfGroup,
} from "@/lib/domains/support/dashboard";
import { isQuiet } from "@/lib/domains/support/quiet";
import {
  MEMBER_KEYS,
  type MemberKey,
  type SupportFigures,
  type SupportReport,
  UNLABELLED,
} from "@/lib/domains/support/schemas";

export const metadata: Metadata = { title: "Reports · Switchboard" };
export const dynamic = "force-dynamic";

type Props = {
  searchParams: Promise<{ days?: string; group?: string; label?: string; member?: string; hours?: string }>;
};

/** The page's state in its address: every link keeps what it does not change. */
type View = { days: ReportPeriod; group: ReportGroup; filters: ReportFilters; allHours: boolean };
function queryOf(v: View): string {
  const q = new URLSearchParams({ days: String(v.days), group: v.group });
  if (v.filters.label) q.set("label", v.filters.label);
  if (v.filters.memberId) q.set("member", v.filters.memberId);
  if (v.allHours) q.set("hours", "all");
  return q.toString();
}

type Duration = SupportFigures["firstResponse"];
/** The pair of a duration the page shows: its business-hours one, or every hour's. */
const pick = (d: Duration, business: boolean) =>
  business ? { median: d.businessMedian, p90: d.businessP90 } : { median: d.median, p90: d.p90 };

/** The group picker's choices: the name on the button and the table's first column. */
const GROUP_NAMES: Record<ReportGroup, string> = { day: "Day", week: "Week", sender: "Sender", label: "Label" };

/** A picker link: the chosen one filled, the others outlined. */
const choice = (on: boolean) =>
  `rounded-md border px-3 py-1.5 text-sm ${
    on
      ? "border-indigo-700 bg-indigo-700 text-white"
      : "border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;

const minutes = (s: number | null) => (s === null ? null : Math.round(s / 6) / 10);

/** The CSAT figures (docs/reports.md "CSAT"): the share of happy answers and how many. */
const csatText = (c: SupportFigures["csat"]) =>
  c.score === null ? "No answers" : `${c.score}% of ${formatCount(c.responses)}`;

/** The figures shown as tiles, each with how it reads. */
const TILES: { id: string; label: string; value: (f: SupportFigures, business: boolean) => string }[] = [
  { id: "conversations", label: "Conversations", value: (f) => formatCount(f.conversations) },
  {
    id: "frt-median",
    label: "First response, median",
    value: (f, b) => formatDuration(pick(f.firstResponse, b).median),
  },
  {
    id: "frt-p90",
    label: "First response, 90th percentile",
    value: (f, b) => formatDuration(pick(f.firstResponse, b).p90),
  },
  {
    id: "resolution-median",
    label: "Resolution, median",
    value: (f, b) => formatDuration(pick(f.resolution, b).median),
  },
  {
    id: "resolution-p90",
    label: "Resolution, 90th percentile",
    value: (f, b) => formatDuration(pick(f.resolution, b).p90),
  },
  { id: "resolved", label: "Resolved", value: (f) => formatCount(f.resolved) },
  { id: "csat", label: "CSAT, happy answers", value: (f) => csatText(f.csat) },
  { id: "sla-breaches", label: "SLA breaches", value: (f) => formatCount(f.slaBreaches) },
];

const FIGURE_COLUMNS = (key: string, label: string): TableColumn[] => [
  { key, label },
  { key: "conversations", label: "Conversations" },
  { key: "outbound", label: "Replies" },
  { key: "frt", label: "First response (median / p90)" },
  { key: "next", label: "Next response (median / p90)" },
  { key: "resolved", label: "Resolved" },
  { key: "resolution", label: "Resolution (median / p90)" },
  { key: "csat", label: "CSAT (happy)" },
  { key: "sla", label: "SLA breaches" },
];

function FigureRow({
  group,
  testId,
  business,
  keyText = group.key,
}: {
  group: SupportReport["groups"][number];
  testId: string;
  business: boolean;
  keyText?: string;
}) {
  const pair = (d: Duration) => {
    const shown = pick(d, business);
    return `${formatDuration(shown.median)} / ${formatDuration(shown.p90)}`;
  };
  return (
    <tr data-testid={testId}>
      <td className={td}>{keyText}</td>
      <td className={td}>{formatCount(group.conversations)}</td>
      <td className={td}>{formatCount(group.outbound)}</td>
      <td className={td}>{pair(group.firstResponse)}</td>
      <td className={td}>{pair(group.nextResponse)}</td>
      <td className={td}>{formatCount(group.resolved)}</td>
      <td className={td}>{pair(group.resolution)}</td>
      <td className={td}>{csatText(group.csat)}</td>
      <td className={td}>{formatCount(group.slaBreaches)}</td>
    </tr>
  );
}

function TableCard({
  id,
  title,
  table,
  view,
  rows,
  children,
}: {
  id: string;
  title: string;
  table: ReportTable;
  view: View;
  rows: number;
  children: ReactNode;
}) {
  // The heatmap takes no filters (docs/reports.md "Filters").
  const q = new URLSearchParams({ table, days: String(view.days) });
  if (table !== "heatmap" && view.filters.label) q.set("label", view.filters.label);
  if (table !== "heatmap" && view.filters.memberId) q.set("member", view.filters.memberId);
  return (
    <section className={`${card} space-y-3`} aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <CsvExportLink
          href={`/api/dashboard/reports/export?${q.toString()}`}
          totalRows={rows}
          label={`Export ${title} as CSV`}
        />
      </div>
      {children}
    </section>
  );
}

/** The keys of the report by member that are no member (docs/reports.md "By member"), as the filter names them. */
const MEMBER_KEY_NAMES: Record<MemberKey, { option: string; figures: string }> = {
  api: { option: "The API", figures: "the figures of the API" },
  automation: { option: "Automation rules", figures: "the closes of automation rules" },
  unanswered: { option: "Not answered yet", figures: "the periods no person has answered yet" },
};

/** A row's name in the table by member: the member's email, or the name the filter gives another key. */
const memberRowName = (key: string): string =>
  (MEMBER_KEYS as readonly string[]).includes(key) ? MEMBER_KEY_NAMES[key as MemberKey].option : key;

export default async function ReportsPage({ searchParams }: Props) {
  const p = await requirePermission("reports");
  const params = await searchParams;
  const days = reportPeriodOf(params.days);
  const group = reportGroupOf(params.group);
  const options = await reportFilterOptions(p);
  const filters = reportFiltersOf(params, options);
  const r = await supportDashboard(p, days, new Date(), group, filters);
  // Business hours by default once the account set them; "All hours" (hours=all) counts every hour.
  const allHours = params.hours === "all";
  const business = r.businessHours && !allHours;
  const view: View = { days, group, filters, allHours };
  const groupName = GROUP_NAMES[group];
  const points: DayPoint[] = r.byDay.map((g) => ({
    day: g.key,
    conversations: g.conversations,
    resolved: g.resolved,
    firstResponseMinutes: minutes(pick(g.firstResponse, business).median),
    resolutionMinutes: minutes(pick(g.resolution, business).median),
  }));
  const filtered = filters.label !== undefined || filters.memberId !== undefined;
  const span = (x: { dateFrom: string; dateTo: string }) => `${x.dateFrom} to ${x.dateTo}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Reports</h1>
        <IntentLink href="/reports/csat" className={link}>
          CSAT survey and answers
        </IntentLink>
      </div>
      <nav aria-label="Period" className="flex flex-wrap gap-2">
        {REPORT_PERIODS.map((n) => (
          <IntentLink
            key={n}
            href={`/reports?${queryOf({ ...view, days: n })}`}
            aria-current={n === days ? "page" : undefined}
            className={choice(n === days)}
          >
            Last {n} days
          </IntentLink>
        ))}
      </nav>
      {/* Keyed by the filters: a link to other filters ("Clear filters") renders the form anew, so its
          selects show the page's filters, not the ones picked before (a select keeps what it shows). */}
      <form
        key={`${filters.label ?? ""}\n${filters.memberId ?? ""}`}
        method="get"
        action="/reports"
        aria-label="Filters"
        className="flex flex-wrap items-end gap-3"
      >
        <input type="hidden" name="days" value={days} />
        <input type="hidden" name="group" value={group} />
        {allHours ? <input type="hidden" name="hours" value="all" /> : null}
        <div>
          <label htmlFor="report-label" className={labelClass}>
            Label
          </label>
          <select id="report-label" name="label" defaultValue={filters.label ?? ""} className={input}>
            <option value="">Every label</option>
            {options.labels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="report-member" className={labelClass}>
            Member
          </label>
          <select id="report-member" name="member" defaultValue={filters.memberId ?? ""} className={input}>
            <option value="">Every member</option>
            {MEMBER_KEYS.map((key) => (
              <option key={key} value={key}>
                {MEMBER_KEY_NAMES[key].option}
              </option>
            ))}
            {options.members.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonSecondary}>
          Apply filters
        </button>
        {filtered ? (
          <IntentLink href={`/reports?${queryOf({ ...view, filters: {} })}`} className={link}>
            Clear filters
          </IntentLink>
        ) : null}
      </form>
      {r.businessHours ? (
        <nav aria-label="Hours" className="flex flex-wrap items-center gap-2">
          <span className={muted}>Durations in</span>
          <IntentLink
            href={`/reports?${queryOf({ ...view, allHours: false })}`}
            aria-current={business ? "page" : undefined}
            className={choice(business)}
            scroll={false}
          >
            Business hours
          </IntentLink>
          <IntentLink
            href={`/reports?${queryOf({ ...view, allHours: true })}`}
            aria-current={business ? undefined : "page"}
            className={choice(!business)}
            scroll={false}
          >
            All hours
          </IntentLink>
        </nav>
      ) : null}
      <p className={muted} data-testid="reports-scope">
        {span(r.current)} ({r.current.timeZone}), compared with {span(r.previous)}. Replies count when a person sends
        them (a member or the API), never a chatbot, a rule or a broadcast.
      </p>
      <p className={muted} data-testid="reports-hours">
        {business
          ? "Durations count only the account's business hours (as they were when each was measured)."
          : r.businessHours
            ? "Durations count every hour."
            : "Durations count every hour: set business hours under Automations to see them in business hours too."}
        {filtered
          ? ` Only ${[
              filters.label === undefined ? null : `conversations labelled ${filters.label}`,
              filters.memberId === undefined
                ? null
                : (MEMBER_KEY_NAMES[filters.memberId as MemberKey]?.figures ?? `the figures of ${filters.memberId}`),
            ]
              .filter(Boolean)
              .join(" and ")}.`
          : ""}
      </p>
      <section aria-label="Figures" className="grid gap-3 sm:grid-cols-3">
        {TILES.map((t) => (
          <div key={t.id} className={card}>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t.label}</p>
            <p className="text-2xl font-semibold" data-testid={`figure-${t.id}`}>
              {t.value(r.totals, business)}
            </p>
            <p className={muted} data-testid={`previous-${t.id}`}>
              Previous period: {t.value(r.previousTotals, business)}
            </p>
          </div>
        ))}
      </section>
      <CardSection id="charts" title="Trends">
        {/* Every day is a point (zero where nothing happened): say so when none has anything. */}
        {r.byDay.every(isQuiet) ? (
          <p className={muted}>No conversations in this period.</p>
        ) : (
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <SupportVolumeChart data={points} label="Conversations and closes per day" />
            <SupportTimesChart data={points} label="First response and resolution medians per day, in minutes" />
          </div>
        )}
      </CardSection>
      <TableCard id="by-member" title="By member" table="members" view={view} rows={r.byMember.length}>
        <DataTable
          label="By member"
          columns={FIGURE_COLUMNS("member", "Member")}
          rowCount={r.byMember.length}
          empty={<p className={muted}>No conversations in this period.</p>}
        >
          {r.byMember.map((g) => (
            <FigureRow key={g.key} group={g} testId="member-row" business={business} keyText={memberRowName(g.key)} />
          ))}
        </DataTable>
      </TableCard>
      <TableCard
        id="by-group"
        title={`By ${groupName.toLowerCase()}`}
        table={tableOfGroup(group)}
        view={view}
        rows={r.byGroup.length}
      >
        <nav aria-label="Group by" className="flex flex-wrap items-center gap-2">
          <span className={muted}>Group by</span>
          {REPORT_GROUPS.map((g) => (
            <IntentLink
              key={g}
              href={`/reports?${queryOf({ ...view, group: g })}`}
              aria-current={g === group ? "page" : undefined}
              className={choice(g === group)}
              scroll={false}
            >
              {GROUP_NAMES[g]}
            </IntentLink>
          ))}
        </nav>
        {group === "label" ? (
          <p className={muted}>
            A conversation counts under each label it carries now, so the rows may add up to more than the totals.
          </p>
        ) : null}
        <DataTable
          label={`By ${groupName.toLowerCase()}`}
          columns={FIGURE_COLUMNS(group, groupName)}
          rowCount={r.byGroup.every(isQuiet) ? 0 : r.byGroup.length}
          empty={<p className={muted}>No conversations in this period.</p>}
        >
          {r.byGroup.map((g) => (
            <FigureRow
              key={g.key}
              group={g}
              testId={`${group}-row`}
              business={business}
              keyText={group === "label" && g.key === UNLABELLED ? "No label" : g.key}
            />
          ))}
        </DataTable>
      </TableCard>
      <TableCard id="heatmap" title="Busiest hours" table="heatmap" view={view} rows={r.heatmap.length}>
        <p className={muted}>
          Inbound messages per weekday and hour ({r.current.timeZone}){filtered ? ", of every conversation" : ""}.
        </p>
        <SupportHeatmapTable cells={r.heatmap} caption={`Inbound messages per weekday and hour, ${span(r.current)}`} />
      </TableCard>
    </div>
  );
}
