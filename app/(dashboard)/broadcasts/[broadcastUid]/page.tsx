// A broadcast's page (docs/broadcasts.md "For the dashboard"): its live progress, the
// delivery funnel with rates, the cost, failures grouped by the provider's code with their
// meaning, pause / resume / cancel, and the recipients with a status filter and a CSV export.
import type { Metadata } from "next";
import { CsvExportLink } from "@/components/dashboard/csv-export-link";
import { DataTable } from "@/components/dashboard/data-table";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { Pager } from "@/components/dashboard/pager";
import { CardSection } from "@/components/ui/card-section";
import { buttonSecondary, input, label, link, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { formatMoney } from "@/lib/core/money";
import { pageBlock } from "@/lib/core/pagination";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams, withParams } from "@/lib/dashboard/search-params";
import { extrasOf } from "@/lib/domains/broadcasts/extras";
import { retryableFailures } from "@/lib/domains/broadcasts/retryable";
import { RECIPIENT_STATUSES, RecipientListQuery } from "@/lib/domains/broadcasts/schemas";
import { toPublicBroadcast, toPublicRecipient } from "@/lib/domains/broadcasts/serializers";
import { failuresByCode, getBroadcast, listRecipients } from "@/lib/domains/broadcasts/service";
import { providerErrorMeaning } from "@/lib/domains/provider/error-meanings";
import { Funnel } from "./funnel";
import { LiveBroadcast } from "./live-broadcast";

export const metadata: Metadata = { title: "Broadcast · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ broadcastUid: string }>; searchParams: Promise<RawSearchParams> };

const RECIPIENT_COLUMNS = [
  { key: "number", label: "Number" },
  { key: "status", label: "Status" },
  { key: "detail", label: "Reason or error" },
  { key: "replied", label: "Replied" },
  { key: "updated", label: "Updated" },
];

const FAILURE_COLUMNS = [
  { key: "code", label: "Code" },
  { key: "meaning", label: "What the provider says" },
  { key: "count", label: "Recipients" },
];

export default async function BroadcastPage({ params, searchParams }: Props) {
  const p = await requirePermission("broadcasts");
  const { broadcastUid } = await params;
  const row = await foundOr404(getBroadcast(p, undefined, broadcastUid));
  const query = flatParams(await searchParams);
  const recipientQuery = listQuery(RecipientListQuery, query);
  const [extras, failures, recipients, retryable] = await Promise.all([
    extrasOf(p.customerId, [row]),
    failuresByCode(p, undefined, row.id),
    listRecipients(p, undefined, row.id, recipientQuery),
    retryableFailures(p, row.id),
  ]);
  const b = toPublicBroadcast(row, extras.get(row.id));
  const path = `/broadcasts/${b.broadcastUid}`;
  const currency = b.estimate?.currency ?? "USD";
  const exportQuery = withParams({}, { status: recipientQuery.status, search: recipientQuery.search });
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/broadcasts" backLabel="All broadcasts" title={b.name}>
        <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div>
            <dt className="inline font-medium">Sender: </dt>
            <dd className="inline font-mono">{b.senderId}</dd>
          </div>
          <div>
            <dt className="inline font-medium">Template: </dt>
            <dd className="inline">
              {b.template.name} ({b.template.language}
              {b.template.category ? `, ${b.template.category.toLowerCase()}` : ""})
            </dd>
          </div>
          <div>
            <dt className="inline font-medium">{b.startedAt ? "Started: " : "Scheduled: "}</dt>
            <dd className="inline">{formatDateTime(b.startedAt ?? b.scheduledAt)}</dd>
          </div>
          <div>
            <dt className="inline font-medium">Completed: </dt>
            <dd className="inline">{formatDateTime(b.completedAt)}</dd>
          </div>
          <div>
            <dt className="inline font-medium">Pace: </dt>
            <dd className="inline">
              {b.maxPerSecond ? `at most ${b.maxPerSecond} per second` : "the sender's throughput"}
            </dd>
          </div>
        </dl>
      </SubpageHeader>

      <LiveBroadcast
        uid={b.broadcastUid}
        status={b.status}
        pauseReason={b.pauseReason}
        resumesAt={b.resumesAt}
        counts={b.counts}
        retryable={{ ...retryable, retryableAt: retryable.retryableAt?.toISOString() ?? null }}
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <CardSection id="broadcast-funnel" title="Delivery funnel">
          <Funnel counts={b.counts} />
        </CardSection>
        <CardSection id="broadcast-cost" title="Cost">
          <p className="text-2xl font-semibold" data-testid="broadcast-cost">
            {formatMoney(b.cost, currency)}
          </p>
          <p className={muted}>
            Billed so far, from the provider's statuses (the ledger shows each debit).
            {b.estimate
              ? ` Estimated at the start: ${formatMoney(b.estimate.cost, b.estimate.currency)} for ${b.estimate.recipients.toLocaleString("en-US")} recipients.`
              : ""}
          </p>
        </CardSection>
      </div>

      <section aria-labelledby="broadcast-failures">
        <h2 id="broadcast-failures" className="mb-3 text-lg font-semibold">
          Failures by reason
        </h2>
        <DataTable
          label="Failures by reason"
          columns={FAILURE_COLUMNS}
          rowCount={failures.length}
          testId="failures-table"
          empty={<EmptyState title="No failed recipients" />}
        >
          {failures.map((f) => {
            const meaning = providerErrorMeaning(f.errorCode);
            return (
              <tr key={f.errorCode ?? "none"} data-testid="failure-row">
                <td className={`${td} font-mono`}>{f.errorCode ?? "—"}</td>
                <td className={td}>
                  <p>{meaning.title}</p>
                  {meaning.whatToDo ? <p className={muted}>{meaning.whatToDo}</p> : null}
                </td>
                <td className={td}>{f.count.toLocaleString("en-US")}</td>
              </tr>
            );
          })}
        </DataTable>
        {failures.length > 0 ? (
          <p className={`${muted} mt-2`}>
            <a href={`${path}?status=failed#broadcast-recipients`} className={link}>
              Show the failed recipients
            </a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="broadcast-recipients">
        <h2 id="broadcast-recipients" className="mb-3 text-lg font-semibold">
          Recipients ({recipients.total.toLocaleString("en-US")})
        </h2>
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          <form method="get" className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="recipient-status" className={label}>
                Status
              </label>
              <select id="recipient-status" name="status" defaultValue={recipientQuery.status ?? ""} className={input}>
                <option value="">Any</option>
                {RECIPIENT_STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="recipient-search" className={label}>
                Number contains
              </label>
              <input
                id="recipient-search"
                name="search"
                inputMode="tel"
                defaultValue={recipientQuery.search ?? ""}
                className={input}
              />
            </div>
            <button type="submit" className={buttonSecondary}>
              Show
            </button>
          </form>
          <CsvExportLink
            href={`/api/dashboard/broadcasts/${b.broadcastUid}/recipients/export${exportQuery}`}
            totalRows={recipients.total}
            label="Export recipients CSV"
          />
        </div>
        <DataTable
          label="Recipients"
          columns={RECIPIENT_COLUMNS}
          rowCount={recipients.recipients.length}
          testId="recipients-table"
          empty={
            <EmptyState title={recipientQuery.status ? `No ${recipientQuery.status} recipients` : "No recipients yet"}>
              {b.status === "DRAFT" || b.status === "SCHEDULED"
                ? "Recipients are made from the audience when the broadcast starts."
                : null}
            </EmptyState>
          }
        >
          {recipients.recipients.map(toPublicRecipient).map((r) => (
            <tr key={r.phoneNumber} data-testid="recipient-row">
              <td className={`${td} font-mono`}>{r.phoneNumber}</td>
              <td className={td}>{r.status}</td>
              <td className={td}>
                {r.skipReason ??
                  (r.errorCode !== null ? `${r.errorCode}: ${providerErrorMeaning(r.errorCode).title}` : "—")}
              </td>
              <td className={td}>{r.replied ? "Yes" : "No"}</td>
              <td className={td}>{formatDateTime(r.updatedAt)}</td>
            </tr>
          ))}
        </DataTable>
        <Pager
          path={path}
          params={query}
          pagination={pageBlock(
            recipientQuery.page,
            recipientQuery.limit,
            recipients.total,
            recipients.recipients.length,
          )}
        />
      </section>
    </div>
  );
}
