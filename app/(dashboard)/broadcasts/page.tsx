// Broadcasts (docs/broadcasts.md): every broadcast of the account, or of the sender chosen in
// the header, newest first, with its status, progress and counts; a status filter and the
// way to a new one.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { FilterActions, SelectFilter } from "@/components/dashboard/filter-fields";
import { Pager } from "@/components/dashboard/pager";
import { button, buttonSecondary, link, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams, withParams } from "@/lib/dashboard/search-params";
import { extrasOf } from "@/lib/domains/broadcasts/extras";
import { BROADCAST_STATUSES, BroadcastListQuery } from "@/lib/domains/broadcasts/schemas";
import { toPublicBroadcast } from "@/lib/domains/broadcasts/serializers";
import { listBroadcasts } from "@/lib/domains/broadcasts/service";
import { resolveSender } from "@/lib/domains/senders/service";
import { FollowBroadcasts } from "./follow-broadcasts";
import { percent } from "./labels";

export const metadata: Metadata = { title: "Broadcasts · Switchboard" };
export const dynamic = "force-dynamic";

// On a phone (below sm) the table keeps what a glance needs, the name with its status and the
// progress, so the progress is on the first screen without scrolling sideways; the other
// columns are on the broadcast's page (docs/dashboard.md "Narrow screens").
const WIDE = "hidden sm:table-cell";
const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "status", label: "Status", className: WIDE },
  { key: "progress", label: "Progress" },
  { key: "sender", label: "Sender", className: WIDE },
  { key: "template", label: "Template", className: WIDE },
  { key: "when", label: "Scheduled or started", className: WIDE },
];

export default async function BroadcastsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("broadcasts");
  const params = flatParams(await searchParams);
  // The header's sender narrows the list; without one, every sender of the account.
  const sender = params.sender
    ? await resolveSender(p, params.sender, { useDefault: false, requireSetup: false })
    : undefined;
  const query = listQuery(BroadcastListQuery, params);
  const { broadcasts, total } = await listBroadcasts(p, sender, query);
  const extras = await extrasOf(p.customerId, broadcasts);
  const rows = broadcasts.map((b) => toPublicBroadcast(b, extras.get(b.id)));
  const keep: Record<string, string> = params.sender ? { sender: params.sender } : {};
  return (
    <div className="space-y-6">
      <FollowBroadcasts />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Broadcasts</h1>
          <p className={muted}>
            One approved template to a whole audience, paced inside the provider's limits
            {sender ? `; sender ${sender.phoneNumber}` : "; every sender"}.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <IntentLink href="/broadcasts/segments" className={buttonSecondary}>
            Segments
          </IntentLink>
          <IntentLink href={`/broadcasts/new${withParams(keep, {})}`} className={button}>
            New broadcast
          </IntentLink>
        </div>
      </div>
      <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter broadcasts">
        {params.sender ? <input type="hidden" name="sender" value={params.sender} /> : null}
        <SelectFilter idPrefix="broadcasts" name="status" label="Status" params={params} options={BROADCAST_STATUSES} />
        <FilterActions resetHref={`/broadcasts${withParams(keep, {})}`} />
      </form>
      <DataTable
        label="Broadcasts"
        columns={COLUMNS}
        rowCount={rows.length}
        testId="broadcasts-table"
        empty={
          <EmptyState title={query.status ? `No ${query.status} broadcasts` : "No broadcasts yet"}>
            Create one to send a template to your contact books.
          </EmptyState>
        }
      >
        {rows.map((b) => {
          const c = b.counts;
          const sent = c.accepted + c.sent + c.delivered + c.read;
          const done = Math.min(c.total, sent + c.failed + c.skipped + c.interrupted);
          return (
            <tr key={b.broadcastUid} data-testid="broadcast-row">
              <td className={td}>
                <IntentLink href={`/broadcasts/${b.broadcastUid}`} className={link}>
                  {b.name}
                </IntentLink>
                <span className={`block sm:hidden ${muted}`} data-testid="broadcast-row-status">
                  {b.status}
                </span>
              </td>
              <td className={`${td} ${WIDE}`}>
                {b.status}
                {b.status === "PAUSED" && b.pauseReason ? (
                  <span className={`block ${muted}`}>{b.pauseReason.replaceAll("_", " ")}</span>
                ) : null}
              </td>
              <td className={`${td} min-w-40`} data-testid="broadcast-row-progress">
                {c.total > 0 ? (
                  <>
                    <div
                      role="progressbar"
                      aria-label={`${b.name}: recipients done`}
                      aria-valuemin={0}
                      aria-valuemax={c.total}
                      aria-valuenow={done}
                      className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
                    >
                      <div
                        className="h-full rounded-full bg-indigo-700 dark:bg-indigo-400"
                        style={{ width: `${(done / c.total) * 100}%` }}
                      />
                    </div>
                    <span className={`block ${muted}`}>
                      {sent.toLocaleString("en-US")} sent · {c.failed.toLocaleString("en-US")} failed ·{" "}
                      {c.skipped.toLocaleString("en-US")} skipped of {c.total.toLocaleString("en-US")} (
                      {percent(done, c.total)})
                    </span>
                  </>
                ) : (
                  <span className={muted}>
                    {b.estimate ? `${b.estimate.recipients.toLocaleString("en-US")} expected` : "Not started"}
                  </span>
                )}
              </td>
              <td className={`${td} ${WIDE} font-mono`}>{b.senderId}</td>
              <td className={`${td} ${WIDE}`}>{b.template.name}</td>
              <td className={`${td} ${WIDE}`}>{formatDateTime(b.startedAt ?? b.scheduledAt)}</td>
            </tr>
          );
        })}
      </DataTable>
      <Pager path="/broadcasts" params={params} pagination={pageBlock(query.page, query.limit, total, rows.length)} />
    </div>
  );
}
