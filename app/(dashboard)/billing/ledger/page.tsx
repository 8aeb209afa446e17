import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/dashboard/pager";
import { button, buttonSecondary, card, input, label, link, table, td, th } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { listBillingHistory } from "@/lib/billing/history";
import { BILLING_CLASSES, TEMPLATE_TYPES, TRANSACTION_TYPES } from "@/lib/billing/schemas";
import { billingSender, parseHistoryView } from "@/lib/dashboard/billing-view";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { requirePrincipal } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Ledger · Switchboard" };

const SELECTS = [
  { name: "transactionType", label: "Transaction type", options: TRANSACTION_TYPES },
  { name: "templateType", label: "Template type", options: TEMPLATE_TYPES },
  { name: "billingClass", label: "Billing class", options: BILLING_CLASSES },
] as const;

export default async function LedgerPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePrincipal();
  const params = flatParams(await searchParams);
  const { query, error } = parseHistoryView(params);
  const sender = await billingSender(p, params.sender);
  const history = await listBillingHistory(p, sender, query);
  const { summary } = history;
  const money = (n: number) => `${summary.currency} ${n.toFixed(4)}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Ledger</h1>
        <Link
          href={params.sender ? `/billing?sender=${encodeURIComponent(params.sender)}` : "/billing"}
          className={link}
        >
          Billing records
        </Link>
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}. Showing the unfiltered ledger.
        </p>
      )}
      <section aria-label="Balance" className="grid gap-3 sm:grid-cols-3">
        {[
          { label: "Balance", value: money(summary.balance), id: "ledger-balance" },
          { label: "Credits", value: money(summary.credits), id: "ledger-credits" },
          { label: "Debits", value: money(summary.debits), id: "ledger-debits" },
        ].map((t) => (
          <div key={t.id} className={card}>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t.label}</p>
            <p className="text-2xl font-semibold" data-testid={t.id}>
              {t.value}
            </p>
          </div>
        ))}
      </section>
      <section className={card} aria-label="Ledger filters">
        <form method="get" action="/billing/ledger" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {params.sender && <input type="hidden" name="sender" value={params.sender} />}
          <div>
            <label htmlFor="l-dateFrom" className={label}>
              From (UTC day)
            </label>
            <input id="l-dateFrom" name="dateFrom" type="date" defaultValue={params.dateFrom ?? ""} className={input} />
          </div>
          <div>
            <label htmlFor="l-dateTo" className={label}>
              To (UTC day)
            </label>
            <input id="l-dateTo" name="dateTo" type="date" defaultValue={params.dateTo ?? ""} className={input} />
          </div>
          <div>
            <label htmlFor="l-phoneNumberId" className={label}>
              Phone number id
            </label>
            <input
              id="l-phoneNumberId"
              name="phoneNumberId"
              defaultValue={params.phoneNumberId ?? ""}
              className={input}
            />
          </div>
          {SELECTS.map((s) => (
            <div key={s.name}>
              <label htmlFor={`l-${s.name}`} className={label}>
                {s.label}
              </label>
              <select id={`l-${s.name}`} name={s.name} defaultValue={params[s.name] ?? ""} className={input}>
                <option value="">Any</option>
                {s.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div className="flex items-end gap-2">
            <button type="submit" className={button}>
              Apply filters
            </button>
            <Link href="/billing/ledger" className={buttonSecondary}>
              Reset
            </Link>
          </div>
        </form>
      </section>
      {history.transactions.length === 0 ? (
        <EmptyState title="No ledger entries match" />
      ) : (
        <div className="overflow-x-auto">
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>Date</th>
                <th className={th}>Type</th>
                <th className={th}>Amount</th>
                <th className={th}>Sender</th>
                <th className={th}>Category</th>
                <th className={th}>Description</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {history.transactions.map((t) => (
                <tr key={t.transactionUid}>
                  <td className={td}>{formatDateTime(t.createdAt)}</td>
                  <td className={td}>{t.type}</td>
                  <td className={td}>{`${t.currency} ${t.amount.toFixed(4)}`}</td>
                  <td className={`${td} font-mono`}>{t.senderId ?? "account"}</td>
                  <td className={td}>{t.pricingCategory ?? "—"}</td>
                  <td className={td}>{t.description ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        path="/billing/ledger"
        params={params}
        page={history.pagination.page}
        hasMore={history.pagination.hasMore}
        total={history.pagination.total}
        totalPages={history.pagination.totalPages}
      />
    </div>
  );
}
