import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/dashboard/pager";
import { card, link, table, td, th } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { pageBlock } from "@/lib/core/pagination";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { requirePrincipal } from "@/lib/dashboard/session";
import { pageSender } from "@/lib/senders/dashboard-scope";
import { EVENT_GROUPS } from "@/lib/webhooks/catalog";
import { WebhookListQuery } from "@/lib/webhooks/schemas";
import { toPublicWebhook } from "@/lib/webhooks/serializers";
import { listWebhooks } from "@/lib/webhooks/service";
import { WebhookCreate } from "./webhook-create";

export const metadata: Metadata = { title: "Webhooks · Switchboard" };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePrincipal();
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
  const parsed = WebhookListQuery.safeParse(params);
  const query = parsed.success ? parsed.data : WebhookListQuery.parse({});
  const { webhooks, total } = await listWebhooks(p, sender, query);
  const pagination = pageBlock(query.page, query.limit, total, webhooks.length);
  const rows = webhooks.map(toPublicWebhook);
  const qs = params.sender ? `?sender=${encodeURIComponent(params.sender)}` : "";
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Destinations for sender <span className="font-mono">{sender.phoneNumber}</span>. Switch sender at the top.{" "}
          <Link className={link} href="/webhooks/events">
            Event catalog: schemas and examples
          </Link>
        </p>
      </div>
      <section className={card} aria-labelledby="new-webhook">
        <h2 id="new-webhook" className="mb-3 text-lg font-semibold">
          Add a destination
        </h2>
        {sender.phoneNumberId ? (
          <WebhookCreate senderPhone={sender.phoneNumber} groups={[...EVENT_GROUPS]} />
        ) : (
          <p className="text-sm">This sender has not finished WhatsApp setup, so it cannot receive events yet.</p>
        )}
      </section>
      <section aria-labelledby="webhook-list">
        <h2 id="webhook-list" className="mb-3 text-lg font-semibold">
          Destinations
        </h2>
        {rows.length === 0 ? (
          <EmptyState title="No webhook destinations for this sender">Add one above to receive events.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className={table}>
              <thead>
                <tr>
                  <th className={th}>Name</th>
                  <th className={th}>Endpoint</th>
                  <th className={th}>Events</th>
                  <th className={th}>Status</th>
                  <th className={th}>Created</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {rows.map((w) => (
                  <tr key={w.uid} data-testid="webhook-row">
                    <td className={td}>
                      <Link className={link} href={`/webhooks/${w.uid}${qs}`}>
                        {w.name}
                      </Link>
                    </td>
                    <td className={`${td} max-w-xs truncate font-mono`}>{w.endpointUrl}</td>
                    <td className={td}>{w.events.length}</td>
                    <td className={td}>{w.status}</td>
                    <td className={td}>{formatDateTime(w.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager path="/webhooks" params={params} page={pagination.page} hasMore={pagination.hasMore} total={total} />
      </section>
    </div>
  );
}
