import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { Pager } from "@/components/dashboard/pager";
import { CardSection } from "@/components/ui/card-section";
import { card, table, td, th } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { pageBlock } from "@/lib/core/pagination";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { requirePrincipal } from "@/lib/dashboard/session";
import { pageSender } from "@/lib/senders/dashboard-scope";
import { EVENT_GROUPS } from "@/lib/webhooks/catalog";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { DeliveryListQuery } from "@/lib/webhooks/schemas";
import { toPublicDelivery, toPublicWebhook } from "@/lib/webhooks/serializers";
import { getWebhook } from "@/lib/webhooks/service";
import { DisabledBanner } from "../disabled-banner";
import { disabledOf } from "../disabled-webhooks";
import { DeliveryActions, TestEventButton } from "./delivery-actions";
import { EndpointHealth } from "./endpoint-health";
import { SecretRotate } from "./secret-rotate";
import { WebhookEdit } from "./webhook-edit";

export const metadata: Metadata = { title: "Webhook · Switchboard" };

type Props = { params: Promise<{ uid: string }>; searchParams: Promise<RawSearchParams> };

export default async function WebhookPage({ params, searchParams }: Props) {
  const p = await requirePrincipal();
  const { uid } = await params;
  const sp = flatParams(await searchParams);
  const sender = await pageSender(p, sp.sender);
  if (!sender) return <EmptyState title="No sender numbers yet" />;
  const webhook = toPublicWebhook(await getWebhook(p, sender, uid));
  const parsed = DeliveryListQuery.safeParse(sp);
  const query = parsed.success ? parsed.data : DeliveryListQuery.parse({});
  const { deliveries, total } = await listDeliveries(p, sender, uid, query);
  const rows = deliveries.map(toPublicDelivery);
  const pagination = pageBlock(query.page, query.limit, total, rows.length);
  const back = sp.sender ? `/webhooks?sender=${encodeURIComponent(sp.sender)}` : "/webhooks";
  return (
    <div className="space-y-6">
      <SubpageHeader backHref={back} backLabel="All webhooks" title={webhook.name}>
        <p className="break-all font-mono text-sm text-slate-600 dark:text-slate-400">{webhook.endpointUrl}</p>
        <p className="text-sm" data-testid="webhook-status">
          Status: {webhook.status}
        </p>
      </SubpageHeader>
      <DisabledBanner senderPhone={sender.phoneNumber} webhooks={disabledOf([webhook])} detailQuery={null} />
      <EndpointHealth health={webhook.health} />
      <CardSection id="edit-webhook" title="Settings">
        <WebhookEdit senderPhone={sender.phoneNumber} webhook={webhook} groups={[...EVENT_GROUPS]} />
      </CardSection>
      <section className={card} aria-labelledby="signing-secret">
        <h2 id="signing-secret" className="mb-1 text-lg font-semibold">
          Signing secret
        </h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400" data-testid="secret-rotation-state">
          {webhook.previousSecretExpiresAt
            ? `Rotated ${formatDateTime(webhook.secretRotatedAt ?? "")}: deliveries carry both signatures until ${formatDateTime(webhook.previousSecretExpiresAt)}.`
            : webhook.secretRotatedAt
              ? `Last rotated ${formatDateTime(webhook.secretRotatedAt)}.`
              : "Never rotated."}
        </p>
        <SecretRotate senderPhone={sender.phoneNumber} uid={uid} />
      </section>
      <section aria-labelledby="deliveries">
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <h2 id="deliveries" className="text-lg font-semibold">
            Delivery log
          </h2>
          <TestEventButton senderPhone={sender.phoneNumber} uid={uid} disabled={webhook.status !== "ACTIVE"} />
        </div>
        {rows.length === 0 ? (
          <EmptyState title="No deliveries yet">Send a test event to see one here.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className={table}>
              <thead>
                <tr>
                  <th className={th}>Event</th>
                  <th className={th}>Status</th>
                  <th className={th}>Status code</th>
                  <th className={th}>Latency</th>
                  <th className={th}>Attempts</th>
                  <th className={th}>Response</th>
                  <th className={th}>Created</th>
                  <th className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {rows.map((d) => {
                  const last = d.attemptLog.at(-1);
                  return (
                    <tr key={d.deliveryId} data-testid="delivery-row">
                      <td className={`${td} font-mono text-xs`}>{d.eventType}</td>
                      <td className={td}>{d.status}</td>
                      <td className={td}>{d.lastStatusCode ?? last?.statusCode ?? "—"}</td>
                      <td className={td}>{last ? `${last.latencyMs} ms` : "—"}</td>
                      <td className={td}>{d.attempts}</td>
                      <td className={`${td} max-w-xs`}>
                        <span className="line-clamp-2 break-all font-mono text-xs">
                          {last?.responseExcerpt ?? last?.error ?? d.lastError ?? "—"}
                        </span>
                      </td>
                      <td className={td}>{formatDateTime(d.createdAt)}</td>
                      <td className={td}>
                        <DeliveryActions senderPhone={sender.phoneNumber} uid={uid} deliveryId={d.deliveryId} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          path={`/webhooks/${uid}`}
          params={sp}
          page={pagination.page}
          hasMore={pagination.hasMore}
          total={total}
          totalPages={pagination.totalPages}
        />
      </section>
    </div>
  );
}
