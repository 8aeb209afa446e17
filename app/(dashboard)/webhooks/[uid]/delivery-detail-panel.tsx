// One delivery opened from the log: payload, request headers and every attempt
// (lib/domains/webhooks/delivery-detail.ts).

import { DataTable } from "@/components/dashboard/data-table";
import { card, link, td } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import type { DeliveryDetail } from "@/lib/domains/webhooks/delivery-detail";

const pre = "whitespace-pre-wrap break-all rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-800";

export function DeliveryDetailPanel({ detail, closeHref }: { detail: DeliveryDetail; closeHref: string }) {
  return (
    <section className={`${card} space-y-4`} aria-labelledby="delivery-detail" data-testid="delivery-detail">
      <div className="flex flex-wrap items-baseline gap-3">
        <h3 id="delivery-detail" className="text-base font-semibold">
          Delivery <span className="break-all font-mono text-sm">{detail.deliveryId}</span>
        </h3>
        <IntentLink href={closeHref} scroll={false} className={`${link} ml-auto text-sm`}>
          Close
        </IntentLink>
      </div>
      <p className="text-sm">
        {detail.eventType} · {detail.status.toLowerCase()} · {detail.attempts} attempt{detail.attempts === 1 ? "" : "s"}
        {detail.nextAttemptAt ? ` · next attempt ${formatDateTime(detail.nextAttemptAt)}` : ""}
      </p>
      <div>
        <h4 className="mb-1 text-sm font-semibold">Payload</h4>
        <pre className={pre} data-testid="delivery-payload">
          {JSON.stringify(detail.payload, null, 2)}
        </pre>
      </div>
      <div>
        <h4 className="mb-1 text-sm font-semibold">Request headers</h4>
        <dl className="space-y-1 text-xs" data-testid="delivery-headers">
          {detail.requestHeaders.map((h) => (
            <div key={h.name} className="grid gap-x-2 sm:grid-cols-[12rem_1fr]">
              <dt className="font-mono font-semibold">{h.name}</dt>
              <dd className="break-all font-mono">
                {h.value}
                {h.note ? <span className="ml-2 font-sans text-slate-600 dark:text-slate-400">({h.note})</span> : null}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      <div>
        <h4 className="mb-1 text-sm font-semibold">Attempts</h4>
        <DataTable
          label="Attempts"
          testId="delivery-attempts"
          columns={[
            { key: "attempt", label: "#" },
            { key: "time", label: "Time" },
            { key: "status", label: "Status code" },
            { key: "duration", label: "Duration" },
            { key: "response", label: "Response" },
          ]}
          rowCount={detail.attemptLog.length}
          empty={<p className="text-sm">No attempt yet.</p>}
        >
          {detail.attemptLog.map((a) => (
            <tr key={`${a.attempt}-${a.startedAt}`} data-testid="attempt-row">
              <td className={td}>{a.attempt}</td>
              <td className={td}>{formatDateTime(a.startedAt)}</td>
              <td className={td}>{a.statusCode ?? "—"}</td>
              <td className={td}>{a.latencyMs} ms</td>
              <td className={`${td} min-w-48`}>
                <pre className={pre}>{a.responseExcerpt ?? a.error ?? "—"}</pre>
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </section>
  );
}
