// Delivery analytics by day and send route, and per template, for the chosen sender.

import type { Metadata } from "next";
import { CostChart } from "@/components/dashboard/cost-chart";
import { lastDaysFrom, periodLabel } from "@/components/dashboard/count-scope";
import { DataTable, type TableColumn } from "@/components/dashboard/data-table";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { CardSection } from "@/components/ui/card-section";
import { card, link, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { IntentLink } from "@/components/ui/intent-link";
import { formatCount } from "@/lib/core/count";
import { requirePermission } from "@/lib/dashboard/guard";
import { billingTotals } from "@/lib/domains/billing/totals";
import { deliveryAnalytics, templateAnalytics } from "@/lib/domains/reports/analytics";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const metadata: Metadata = { title: "Analytics · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ sender?: string }> };
const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;

/** The rate tables' columns after their first (what a row counts). */
const RATE_COLUMNS = (key: string, label: string): TableColumn[] => [
  { key, label },
  { key: "messages", label: "Messages" },
  { key: "delivered", label: "Delivered" },
  { key: "read", label: "Read" },
  { key: "failed", label: "Failed" },
];

export default async function AnalyticsPage({ searchParams }: Props) {
  const p = await requirePermission("billing");
  const requested = (await searchParams).sender;
  const sender = await pageSender(p, requested);
  if (!sender) return <EmptyState title="No sender numbers yet">Analytics appear once messages are sent.</EmptyState>;
  const dateFrom = lastDaysFrom(30, new Date());
  const [delivery, { templates }, billed] = await Promise.all([
    deliveryAnalytics(p, sender, { dateFrom }, "v3"),
    templateAnalytics(p, sender, { page: 1, limit: 20, dateFrom }, "v3"),
    // The same sender and days as Billing counts them (its own function), to read side by side.
    billingTotals(p, sender, { dateFrom }),
  ]);
  const billingHref = `/billing?${new URLSearchParams({ sender: sender.phoneNumber, dateFrom })}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Analytics</h1>
      <SenderInForce sender={senderInfo(sender)} chosen={Boolean(requested)} />
      <p className={muted} data-testid="analytics-scope">
        Last 30 days ({periodLabel(dateFrom)}) for sender {sender.phoneNumber}:{" "}
        <span data-testid="analytics-sent">{formatCount(delivery.totals.total)}</span>{" "}
        {delivery.totals.total === 1 ? "message" : "messages"} sent through Switchboard, delivered{" "}
        {pct(delivery.totals.deliveryRate)}, read {pct(delivery.totals.readRate)}, failed{" "}
        {pct(delivery.totals.failureRate)}.
      </p>
      <p className={muted}>
        Billing counts every message the provider billed for this sender in the same days, also those not sent through
        Switchboard (such as imported history):{" "}
        <span data-testid="analytics-billed">{formatCount(billed.messages)}</span>{" "}
        {billed.messages === 1 ? "billing record" : "billing records"}.{" "}
        <IntentLink href={billingHref} className={link}>
          Open them in Billing
        </IntentLink>
      </p>
      <CardSection id="by-day" title="Delivery by day">
        <CostChart
          data={delivery.byDay.flatMap((d) => [
            { day: d.date, category: "read", cost: d.read, messages: d.read },
            { day: d.date, category: "delivered", cost: d.delivered - d.read, messages: d.delivered - d.read },
            { day: d.date, category: "failed", cost: d.failed, messages: d.failed },
            {
              day: d.date,
              category: "sent or pending",
              cost: d.total - d.delivered - d.failed,
              messages: d.total - d.delivered - d.failed,
            },
          ])}
          currency=""
          unit="messages"
          integer
          description={`Messages per day over the last 30 days by outcome: ${formatCount(delivery.totals.total)} sent`}
          empty="No messages in this period."
        />
      </CardSection>
      {delivery.bySendRoute ? (
        <section className={`${card} p-0`} aria-labelledby="by-route">
          <h2 id="by-route" className="px-4 pt-4 text-lg font-semibold">
            By send route
          </h2>
          <DataTable
            label="By send route"
            columns={RATE_COLUMNS("route", "Route")}
            rowCount={delivery.bySendRoute.length}
            empty={<p className={`${muted} p-4`}>No messages in this period.</p>}
          >
            {delivery.bySendRoute.map((r) => (
              <tr key={r.sendRoute}>
                <td className={td}>{r.sendRoute}</td>
                <td className={td}>{formatCount(r.total)}</td>
                <td className={td}>{pct(r.deliveryRate)}</td>
                <td className={td}>{pct(r.readRate)}</td>
                <td className={td}>{pct(r.failureRate)}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      ) : null}
      <section className={`${card} p-0`} aria-labelledby="by-template">
        <h2 id="by-template" className="px-4 pt-4 text-lg font-semibold">
          By template
        </h2>
        <DataTable
          label="By template"
          columns={RATE_COLUMNS("template", "Template")}
          rowCount={templates.length}
          empty={<p className={`${muted} p-4`}>No template messages in this period.</p>}
        >
          {templates.map((t) => (
            <tr key={`${String(t.templateName)}|${String(t.language)}`}>
              <td className={`${td} font-mono`}>
                {String(t.templateName)} <span className={muted}>({String(t.language)})</span>
              </td>
              <td className={td}>{formatCount(Number(t.total))}</td>
              <td className={td}>{pct(Number(t.deliveryRate))}</td>
              <td className={td}>{pct(Number(t.readRate))}</td>
              <td className={td}>{pct(Number(t.failureRate))}</td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
