import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { CardSection } from "@/components/ui/card-section";
import { link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { EVENT_GROUPS } from "@/lib/domains/webhooks/catalog";
import { WebhookListQuery } from "@/lib/domains/webhooks/schemas";
import { toPublicWebhook } from "@/lib/domains/webhooks/serializers";
import { listWebhooks } from "@/lib/domains/webhooks/service";
import { DisabledBanner } from "./disabled-banner";
import { disabledOf } from "./disabled-webhooks";
import { WebhookCreate } from "./webhook-create";

export const metadata: Metadata = { title: "Webhooks · Switchboard" };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("webhooks");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  if (!sender) {
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <EmptyState title="No sender numbers yet">Webhooks are set up per sender number; connect one first.</EmptyState>
      </div>
    );
  }
  const query = listQuery(WebhookListQuery, params);
  const { webhooks, total } = await listWebhooks(p, sender, query);
  const pagination = pageBlock(query.page, query.limit, total, webhooks.length);
  const rows = webhooks.map(toPublicWebhook);
  const qs = params.sender ? `?sender=${encodeURIComponent(params.sender)}` : "";
  // Every destination the service disabled, not only this page's (docs/event-pipeline.md "Endpoint health").
  const inactive = await listWebhooks(p, sender, { status: "INACTIVE", page: 1, limit: 100 });
  const disabled = disabledOf(inactive.webhooks.map(toPublicWebhook));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(params.sender)} />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Destinations for sender <span className="font-mono">{sender.phoneNumber}</span>. Switch sender at the top.{" "}
          <IntentLink className={link} href="/webhooks/events">
            Event catalog: schemas and examples
          </IntentLink>
        </p>
      </div>
      <DisabledBanner senderPhone={sender.phoneNumber} webhooks={disabled} detailQuery={qs} />
      <CardSection id="new-webhook" title="Add a destination">
        {sender.phoneNumberId ? (
          <WebhookCreate senderPhone={sender.phoneNumber} groups={[...EVENT_GROUPS]} />
        ) : (
          <p className="text-sm">This sender has not finished WhatsApp setup, so it cannot receive events yet.</p>
        )}
      </CardSection>
      <section aria-labelledby="webhook-list">
        <h2 id="webhook-list" className="mb-3 text-lg font-semibold">
          Destinations
        </h2>
        <DataTable
          label="Webhooks"
          columns={[
            { key: "name", label: "Name" },
            { key: "endpoint", label: "Endpoint" },
            { key: "events", label: "Events" },
            { key: "status", label: "Status" },
            { key: "created", label: "Created" },
          ]}
          rowCount={rows.length}
          empty={
            <EmptyState title="No webhook destinations for this sender">Add one above to receive events.</EmptyState>
          }
        >
          {rows.map((w) => (
            <tr key={w.uid} data-testid="webhook-row">
              <td className={td}>
                <IntentLink className={link} href={`/webhooks/${w.uid}${qs}`}>
                  {w.name}
                </IntentLink>
              </td>
              <td className={`${td} max-w-xs truncate font-mono`}>{w.endpointUrl}</td>
              <td className={td}>{w.events.length}</td>
              <td className={td}>
                {w.status}
                {w.status === "ACTIVE" && w.health.breakerState !== "CLOSED"
                  ? ` (breaker ${w.health.breakerState})`
                  : ""}
              </td>
              <td className={td}>{formatDateTime(w.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
        <Pager path="/webhooks" params={params} pagination={pagination} />
      </section>
    </div>
  );
}
