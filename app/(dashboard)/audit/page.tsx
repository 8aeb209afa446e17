// The audit log (docs/security.md "Audit log"): who changed what in the account, newest
// first, with the API's filters and a streamed CSV export of the filtered entries.
import type { Metadata } from "next";
import { CsvExportLink } from "@/components/dashboard/csv-export-link";
import { DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { buttonSecondary, input, label, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { AUDIT_ACTIONS } from "@/lib/domains/audit/actions";
import { AuditEventListQuery } from "@/lib/domains/audit/schemas";
import { actorLabel, toPublicAuditEvent } from "@/lib/domains/audit/serializers";
import { listAuditEvents } from "@/lib/domains/audit/service";

export const metadata: Metadata = { title: "Audit log · Switchboard" };
export const dynamic = "force-dynamic";

const COLUMNS = [
  { key: "time", label: "Time" },
  { key: "action", label: "Action" },
  { key: "actor", label: "Actor" },
  { key: "target", label: "Target" },
  { key: "from", label: "IP / user agent" },
  { key: "details", label: "Details" },
];

const FILTERS = ["action", "actor", "targetUid", "dateFrom", "dateTo"] as const;

export default async function AuditPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("audit");
  const params = flatParams(await searchParams);
  const query = listQuery(AuditEventListQuery, params);
  const { events, total } = await listAuditEvents(p, query);
  const rows = events.map(toPublicAuditEvent);
  const exportQs = new URLSearchParams(
    FILTERS.flatMap((k) => (query[k] ? [[k, String(query[k])] as [string, string]] : [])),
  ).toString();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <p className={muted}>
          Who changed what: sign-ins, members, API tokens, webhooks, senders, chatbots, the blacklist and exports, by a
          member, an API token, the operator or the system. Entries are kept as long as the operator configured.
        </p>
      </div>
      <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
        <div>
          <label htmlFor="audit-action" className={label}>
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={query.action ?? ""} className={input}>
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-actor" className={label}>
            Actor (email, token prefix, operator, system)
          </label>
          <input id="audit-actor" name="actor" defaultValue={query.actor ?? ""} className={input} />
        </div>
        <div>
          <label htmlFor="audit-target" className={label}>
            Target id
          </label>
          <input id="audit-target" name="targetUid" defaultValue={query.targetUid ?? ""} className={input} />
        </div>
        <div>
          <label htmlFor="audit-from" className={label}>
            From
          </label>
          <input id="audit-from" name="dateFrom" type="date" defaultValue={query.dateFrom ?? ""} className={input} />
        </div>
        <div>
          <label htmlFor="audit-to" className={label}>
            To
          </label>
          <input id="audit-to" name="dateTo" type="date" defaultValue={query.dateTo ?? ""} className={input} />
        </div>
        <button type="submit" className={buttonSecondary}>
          Filter
        </button>
        <CsvExportLink href={`/api/dashboard/audit/export${exportQs ? `?${exportQs}` : ""}`} totalRows={total} />
      </form>
      <DataTable
        label="Audit log entries"
        caption="Audit log entries, newest first"
        testId="audit-table"
        columns={COLUMNS}
        rowCount={rows.length}
        empty={<EmptyState title="No entries match" />}
      >
        {rows.map((e) => (
          <tr key={e.auditEventUid} data-testid="audit-row">
            <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.createdAt)}</td>
            <td className={`${td} font-mono`}>{e.action}</td>
            <td className={td}>{actorLabel(e.actor)}</td>
            <td className={td}>
              {e.target.type} <span className="font-mono">{e.target.uid}</span>
            </td>
            <td className={td}>
              {e.ip ?? "—"}
              <div className={`${muted} max-w-48 truncate`} title={e.userAgent ?? undefined}>
                {e.userAgent ?? ""}
              </div>
            </td>
            <td className={`${td} font-mono text-xs break-all`}>{JSON.stringify(e.details)}</td>
          </tr>
        ))}
      </DataTable>
      <Pager path="/audit" params={params} pagination={pageBlock(query.page, query.limit, total, rows.length)} />
    </div>
  );
}
