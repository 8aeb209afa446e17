// The delivery log of one webhook: a status filter, refresh, one row per delivery (its
// last attempt at a glance) and, for the delivery opened with ?delivery=, its payload,
// headers and every attempt (docs/event-pipeline.md "Delivery log").

import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { listQuery, withParams } from "@/lib/dashboard/search-params";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { listDeliveries } from "@/lib/domains/webhooks/deliveries";
import { getDeliveryDetail } from "@/lib/domains/webhooks/delivery-detail";
import { DELIVERY_STATUSES, DeliveryListQuery } from "@/lib/domains/webhooks/schemas";
import { toPublicDelivery } from "@/lib/domains/webhooks/serializers";
import { DeliveryActions, TestEventButton } from "./delivery-actions";
import { DeliveryDetailPanel } from "./delivery-detail-panel";
import { DeliveryLogControls } from "./delivery-log-controls";

type Props = {
  p: Principal;
  sender: Sender;
  uid: string;
  params: Record<string, string>;
  active: boolean;
};

export async function DeliveryLog({ p, sender, uid, params, active }: Props) {
  const query = listQuery(DeliveryListQuery, params);
  const [{ deliveries, total }, detail] = await Promise.all([
    listDeliveries(p, sender, uid, query),
    params.delivery ? getDeliveryDetail(p, sender, uid, params.delivery).catch(() => null) : Promise.resolve(null),
  ]);
  const rows = deliveries.map(toPublicDelivery);
  const pagination = pageBlock(query.page, query.limit, total, rows.length);
  const path = `/webhooks/${uid}`;
  const { delivery: _open, ...listParams } = params;
  return (
    <section aria-labelledby="deliveries" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="deliveries" className="text-lg font-semibold">
          Delivery log
        </h2>
        <TestEventButton senderPhone={sender.phoneNumber} uid={uid} disabled={!active} />
      </div>
      <DeliveryLogControls statuses={DELIVERY_STATUSES} />
      {detail ? <DeliveryDetailPanel detail={detail} closeHref={`${path}${withParams(listParams, {})}`} /> : null}
      <DataTable
        label="Deliveries"
        columns={[
          { key: "event", label: "Event" },
          { key: "status", label: "Status" },
          { key: "code", label: "Status code" },
          { key: "duration", label: "Duration" },
          { key: "attempts", label: "Attempts" },
          { key: "response", label: "Response" },
          { key: "created", label: "Created" },
          actionsColumn(),
        ]}
        rowCount={rows.length}
        empty={
          <EmptyState title={query.status ? `No ${query.status.toLowerCase()} deliveries` : "No deliveries yet"}>
            {query.status ? "Choose another status." : "Send a test event to see one here."}
          </EmptyState>
        }
      >
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
                <div className="flex flex-wrap items-center gap-2">
                  <IntentLink
                    href={`${path}${withParams(listParams, { delivery: d.deliveryId })}`}
                    scroll={false}
                    className={link}
                    aria-label={`Details of delivery ${d.deliveryId}`}
                  >
                    Details
                  </IntentLink>
                  <DeliveryActions senderPhone={sender.phoneNumber} uid={uid} deliveryId={d.deliveryId} />
                </div>
              </td>
            </tr>
          );
        })}
      </DataTable>
      <Pager path={path} params={listParams} pagination={pagination} />
    </section>
  );
}
