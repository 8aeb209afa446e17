import type { Metadata } from "next";
import { CostChart } from "@/components/dashboard/cost-chart";
import { periodLabel } from "@/components/dashboard/count-scope";
import { CsvExportLink } from "@/components/dashboard/csv-export-link";
import { DataTable, StatTiles, type TableColumn } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { card, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime, formatRate } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { formatCount } from "@/lib/core/count";
import { formatMoney } from "@/lib/core/money";
import { aggregateKey, sharedAggregate } from "@/lib/dashboard/aggregate-cache";
import { billingSender, parseMessagesView } from "@/lib/dashboard/billing-view";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams, withParams } from "@/lib/dashboard/search-params";
import { getBillingRecord, listBillingRecords } from "@/lib/domains/billing/messages";
import { type BillingSortField, PublicBillingRecord } from "@/lib/domains/billing/schemas";
import { billingTotals, costPerDay } from "@/lib/domains/billing/totals";
import { BillingFiltersForm, filterLabel } from "./filters-form";
import { RecordDrawer } from "./record-drawer";

export const metadata: Metadata = { title: "Billing · Switchboard" };

const COLUMNS: { key: string; label: string; sort?: BillingSortField }[] = [
  { key: "createdAt", label: "Created", sort: "created_at" },
  { key: "messageTimestamp", label: "Message time", sort: "message_timestamp" },
  { key: "recipientId", label: "Recipient" },
  { key: "status", label: "Status", sort: "status" },
  { key: "pricingCategory", label: "Category", sort: "pricing_category" },
  { key: "billingClass", label: "Class" },
  { key: "rate", label: "Rate", sort: "rate" },
];

export default async function BillingPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("billing");
  const params = flatParams(await searchParams);
  const { query, refusal } = parseMessagesView(params);
  const sender = await billingSender(p, params.sender);
  if (!query) {
    // A filter the view cannot apply: said, with the form showing it under its field, and no rows.
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold">Billing</h1>
        <p
          role="alert"
          data-testid="billing-filters-refused"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {filterLabel(refusal.field)}: {refusal.message}. No records are shown until the filters are changed or reset.
        </p>
        <section className={card} aria-label="Filters">
          <BillingFiltersForm params={params} refusal={refusal} />
        </section>
      </div>
    );
  }
  const [list, totals, perDay, record] = await Promise.all([
    listBillingRecords(p, sender, query),
    sharedAggregate(aggregateKey("totals", p.customerId, sender?.id, query), () => billingTotals(p, sender, query)),
    sharedAggregate(aggregateKey("perDay", p.customerId, sender?.id, query), () => costPerDay(p, sender, query)),
    params.record ? getBillingRecord(p, sender, params.record).catch(() => null) : Promise.resolve(null),
  ]);
  const { record: _r, ...viewParams } = params;
  const exportQs = withParams(viewParams, { page: undefined, limit: undefined });
  const sortHref = (field: BillingSortField) => {
    const order = query.sortBy === field && query.sortOrder === "DESC" ? "ASC" : "DESC";
    return `/billing${withParams(viewParams, { sortBy: field, sortOrder: order, page: undefined })}`;
  };
  // A sortable head links to its sort (the other direction when it is the current one).
  const sortableColumn = (c: (typeof COLUMNS)[number]): TableColumn => {
    if (!c.sort) return c;
    const active = query.sortBy === c.sort;
    const ascending = query.sortOrder === "ASC";
    return {
      key: c.key,
      ariaSort: active ? (ascending ? "ascending" : "descending") : undefined,
      label: (
        <IntentLink href={sortHref(c.sort)} className="underline-offset-2 hover:underline">
          {c.label}
          {active ? (ascending ? " ▲" : " ▼") : ""}
        </IntentLink>
      ),
    };
  };
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Billing</h1>
        <IntentLink
          href={`/billing/ledger${withParams(params.sender ? { sender: params.sender } : {}, {})}`}
          className={link}
        >
          Ledger
        </IntentLink>
        <div className="ml-auto">
          <CsvExportLink href={`/api/dashboard/billing/export${exportQs}`} totalRows={totals.messages} />
        </div>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="billing-scope">
        {sender ? `Sender ${sender.phoneNumber}` : "All senders"} ·{" "}
        {list.scope === "user" ? "account-wide" : "one sender"} · {periodLabel(query.dateFrom, query.dateTo)} · every
        message the provider billed, also those not sent through Switchboard (Analytics counts only messages sent
        through Switchboard).
      </p>
      <section className={card} aria-label="Filters">
        <BillingFiltersForm params={params} />
      </section>
      <StatTiles
        label="Totals for the filtered set"
        title="Totals and the chart may lag new records by a few seconds"
        tiles={[
          { label: "Billed messages", value: formatCount(totals.messages), id: "total-messages" },
          { label: "Payable", value: formatCount(totals.payable), id: "total-payable" },
          { label: "Cost", value: formatMoney(totals.cost, "USD"), id: "total-cost" },
        ]}
      />
      <section className={card} aria-labelledby="chart-title">
        <h2 id="chart-title" className="mb-2 text-lg font-semibold">
          Cost per day by pricing category
        </h2>
        <CostChart data={perDay} currency="USD" />
      </section>
      <section aria-labelledby="records-title">
        <h2 id="records-title" className="mb-3 text-lg font-semibold">
          Billing records
        </h2>
        <DataTable
          label="Billing records"
          columns={[
            ...COLUMNS.map(sortableColumn),
            { key: "details", label: <span className="sr-only">Details</span> },
          ]}
          rowCount={list.billingRecords.length}
          empty={<EmptyState title="No billing records match these filters">Change or reset the filters.</EmptyState>}
          testId="billing-table"
        >
          {list.billingRecords.map((r) => (
            <tr key={r.billingUid} data-testid="billing-row">
              <td className={td}>{formatDateTime(r.createdAt)}</td>
              <td className={td}>{formatDateTime(r.messageTimestamp)}</td>
              <td className={`${td} font-mono`}>{r.recipientId}</td>
              <td className={td}>{r.status}</td>
              <td className={td}>{r.pricingCategory ?? "—"}</td>
              <td className={td}>{r.billingClass}</td>
              <td className={td}>{formatRate(r, "USD")}</td>
              <td className={td}>
                <IntentLink
                  href={`/billing${withParams(params, { record: r.billingUid })}`}
                  scroll={false}
                  className={link}
                  aria-label={`Details of message ${r.messageId}`}
                >
                  Details
                </IntentLink>
              </td>
            </tr>
          ))}
        </DataTable>
        <Pager path="/billing" params={viewParams} pagination={list.pagination} />
      </section>
      {record && (
        <RecordDrawer title="Billing record" closeHref={`/billing${withParams(viewParams, {})}`}>
          <dl className="space-y-2 text-sm">
            {Object.keys(PublicBillingRecord.shape).map((k) => (
              <div key={k} className="grid grid-cols-[10rem_1fr] gap-2">
                <dt className="font-medium text-slate-600 dark:text-slate-400">{k}</dt>
                <dd className="break-all font-mono">{String(record[k as keyof typeof record] ?? "—")}</dd>
              </div>
            ))}
          </dl>
        </RecordDrawer>
      )}
    </div>
  );
}
