// Segments (docs/automation.md "Segments"): the account's saved audiences, newest first, each
// with its rules in words and its live count (the query a broadcast start makes its
// recipients with), the way to a new broadcast to it, and to the segment form (new, or to change one).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { Pager } from "@/components/dashboard/pager";
import { button, link, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { SegmentListQuery, type SegmentRules } from "@/lib/domains/broadcasts/segment-schemas";
import { countSegment, listSegments, rulesOf } from "@/lib/domains/broadcasts/segments";

export const metadata: Metadata = { title: "Segments · Switchboard" };
export const dynamic = "force-dynamic";

const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "rules", label: "Rules" },
  { key: "count", label: "Numbers now" },
];

/** The rules in words, one phrase each. */
function describe(rules: SegmentRules): string {
  const parts = [
    rules.contactBookUids.length > 0
      ? `${rules.contactBookUids.length} contact book${rules.contactBookUids.length === 1 ? "" : "s"}`
      : "every number of the account",
    ...(rules.filters.length > 0 ? [`${rules.filters.length} filter${rules.filters.length === 1 ? "" : "s"}`] : []),
    ...(rules.labels.length > 0 ? [`labels ${rules.labels.join(", ")}`] : []),
    ...(rules.lastInboundWithin ? [`wrote within ${rules.lastInboundWithin}`] : []),
    ...(rules.optedIn ? ["opted in"] : []),
  ];
  return parts.join(" · ");
}

export default async function SegmentsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("broadcasts");
  const params = flatParams(await searchParams);
  const query = listQuery(SegmentListQuery, params);
  const { segments, total } = await listSegments(p, { ...query, limit: Math.min(query.limit, 20) });
  const counts = await Promise.all(segments.map((s) => countSegment(p, s.id)));
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/broadcasts" backLabel="All broadcasts" title="Segments">
        <p className={muted}>Saved audiences: a broadcast sent to one takes its rules when it starts.</p>
        <IntentLink href="/broadcasts/segments/new" className={`mt-2 inline-block ${button}`}>
          New segment
        </IntentLink>
      </SubpageHeader>
      <DataTable
        label="Segments"
        columns={COLUMNS}
        rowCount={segments.length}
        testId="segments-table"
        empty={<EmptyState title="No segments yet">Create one to pick it on a new broadcast.</EmptyState>}
      >
        {segments.map((s, i) => (
          <tr key={s.id} data-testid="segment-row">
            <td className={td}>
              <IntentLink href={`/broadcasts/segments/${s.id}`} className={link} aria-label={`Edit ${s.name}`}>
                {s.name}
              </IntentLink>
              <IntentLink href={`/broadcasts/new?segment=${s.id}`} className={`block ${link}`}>
                New broadcast to it
              </IntentLink>
            </td>
            <td className={td}>{describe(rulesOf(s))}</td>
            <td className={td} data-testid="segment-row-count">
              {(counts[i] ?? 0).toLocaleString("en-US")}
            </td>
          </tr>
        ))}
      </DataTable>
      <Pager
        path="/broadcasts/segments"
        params={params}
        pagination={pageBlock(query.page, Math.min(query.limit, 20), total, segments.length)}
      />
    </div>
  );
}
