import type { Metadata } from "next";
import { DataTable, StatTiles } from "@/components/dashboard/data-table";
import { DateRangeFilter, FilterActions, SelectFilter, TextFilter } from "@/components/dashboard/filter-fields";
import { Pager } from "@/components/dashboard/pager";
import { card, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { formatMoney } from "@/lib/core/money";
import { billingSender, parseHistoryView } from "@/lib/dashboard/billing-view";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { listBillingHistory } from "@/lib/domains/billing/history";
import { lowBalanceState } from "@/lib/domains/billing/low-balance";
import { BILLING_CLASSES, TEMPLATE_TYPES, TRANSACTION_TYPES } from "@/lib/domains/billing/schemas";
import { ThresholdForm } from "./threshold-form";

export const metadata: Metadata = { title: "Ledger · Switchboard" };

const COLUMNS = ["Date", "Type", "Amount", "Sender", "Category", "Description"].map((l) => ({ key: l, label: l }));

const SELECTS = [
  { name: "transactionType", label: "Transaction type", options: TRANSACTION_TYPES },
  { name: "templateType", label: "Template type", options: TEMPLATE_TYPES },
  { name: "billingClass", label: "Billing class", options: BILLING_CLASSES },
] as const;

const LABELS: Record<string, string> = {
  dateFrom: "From (UTC day)",
  dateTo: "To (UTC day)",
  phoneNumberId: "Phone number id",
  ...Object.fromEntries(SELECTS.map((s) => [s.name, s.label])),
};

export default async function LedgerPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("billing");
  const params = flatParams(await searchParams);
  const { query, refusal } = parseHistoryView(params);
  const sender = await billingSender(p, params.sender);
  // A filter the view cannot apply is said, under its field too, and nothing is listed (never the unfiltered ledger).
  const [history, alert] = await Promise.all([query ? listBillingHistory(p, sender, query) : null, lowBalanceState(p)]);
  const money = (n: number) => formatMoney(n, history?.summary.currency ?? alert.currency);
  const field = { idPrefix: "l", params };
  const errorOf = (name: string) => (refusal?.field === name ? refusal.message : undefined);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Ledger</h1>
        <IntentLink
          href={params.sender ? `/billing?sender=${encodeURIComponent(params.sender)}` : "/billing"}
          className={link}
        >
          Billing records
        </IntentLink>
      </div>
      {refusal && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {LABELS[refusal.field] ?? refusal.field}: {refusal.message}. No entries are shown until the filters are
          changed or reset.
        </p>
      )}
      {history && (
        <StatTiles
          label="Balance"
          tiles={[
            { label: "Balance", value: money(history.summary.balance), id: "ledger-balance" },
            { label: "Credits", value: money(history.summary.credits), id: "ledger-credits" },
            { label: "Debits", value: money(history.summary.debits), id: "ledger-debits" },
          ]}
        />
      )}
      <section className={card} aria-label="Low-balance alert">
        <h2 className="mb-2 text-base font-semibold">Low-balance alert</h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          Below this balance every page shows a banner and your webhooks subscribed to <code>billing.balance.low</code>{" "}
          hear it once (again after the balance is back above).
        </p>
        <ThresholdForm threshold={alert.threshold} currency={alert.currency} />
      </section>
      <section className={card} aria-label="Ledger filters">
        <form method="get" action="/billing/ledger" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {params.sender && <input type="hidden" name="sender" value={params.sender} />}
          <DateRangeFilter {...field} errorOf={errorOf} />
          <TextFilter {...field} name="phoneNumberId" label="Phone number id" error={errorOf("phoneNumberId")} />
          {SELECTS.map((s) => (
            <SelectFilter key={s.name} {...field} {...s} error={errorOf(s.name)} />
          ))}
          <FilterActions resetHref="/billing/ledger" />
        </form>
      </section>
      {history && (
        <>
          <DataTable
            label="Ledger entries"
            columns={COLUMNS}
            rowCount={history.transactions.length}
            empty={<EmptyState title="No ledger entries match" />}
          >
            {history.transactions.map((t) => (
              <tr key={t.transactionUid}>
                <td className={td}>{formatDateTime(t.createdAt)}</td>
                <td className={td}>{t.type}</td>
                <td className={td}>{formatMoney(t.amount, t.currency, "exact")}</td>
                <td className={`${td} font-mono`}>{t.senderId ?? "account"}</td>
                <td className={td}>{t.pricingCategory ?? "—"}</td>
                <td className={td}>{t.description ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
          <Pager path="/billing/ledger" params={params} pagination={history.pagination} />
        </>
      )}
    </div>
  );
}
