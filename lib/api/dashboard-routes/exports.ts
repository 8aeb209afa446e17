// The dashboard's CSV exports (session: "only", lib/api/route-definition.ts): a file a link
// downloads, read chunk by chunk by CsvExportLink (components/dashboard/csv-export-link.tsx).
// The public API has no CSV route; its lists page through JSON. Each answer is a raw Response
// whose body is the service's stream, written batch by batch as the browser reads it (the whole
// file is never held), with the download's headers. Each export is recorded (export.downloaded,
// docs/security.md "Audit log") before the first row.
import { billingSender, parseExportView } from "@/lib/dashboard/billing-view";
import { streamAuditCsv } from "@/lib/domains/audit/csv";
import { recordExport } from "@/lib/domains/audit/exports";
import { AuditFilters } from "@/lib/domains/audit/schemas";
import { streamBillingCsv } from "@/lib/domains/billing/csv";
import { recipientsCsv } from "@/lib/domains/broadcasts/recipients-csv";
import { BroadcastUid, RecipientExportQuery } from "@/lib/domains/broadcasts/schemas";
import {
  reportFilterOptions,
  reportFiltersOf,
  reportPeriodOf,
  reportTableOf,
  supportCsv,
} from "@/lib/domains/support/dashboard";
import { type AnyRoute, route } from "../route-definition";
import { dashboardOnly } from "./common";

/** A CSV download: the browser saves it under `fileName`; never cached (the filters are the member's). */
function csvResponse(body: ReadableStream<Uint8Array> | string, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}

const today = () => new Date().toISOString().slice(0, 10);

export const exportDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Audit",
    method: "GET",
    path: "/audit/export",
    permission: "audit",
    query: AuditFilters,
    summary: "The audit log as CSV",
    description: "The audit log's filtered entries (the page's filters), streamed batch by batch (docs/security.md).",
    handler: async ({ principal, query }) => {
      await recordExport(principal, "audit", query);
      return csvResponse(streamAuditCsv(principal, query), `audit-${today()}.csv`);
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Billing",
    method: "GET",
    path: "/billing/export",
    permission: "billing",
    summary: "The billing explorer's view as CSV",
    description:
      "The explorer's filtered set (its URL's view: ?sender= and GET /billing/messages' filters), streamed batch by batch (fine for a million rows).",
    handler: async ({ principal, request }) => {
      // The view's own reading of its URL (the page's, lib/dashboard/billing-view.ts): a refused filter is a 400 naming it.
      const query = parseExportView(Object.fromEntries(new URL(request.url).searchParams));
      const sender = await billingSender(principal, query.senderId);
      await recordExport(principal, "billing", { ...query, senderId: sender?.id });
      return csvResponse(streamBillingCsv(principal, sender, query), `billing-${today()}.csv`);
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Broadcasts",
    method: "GET",
    path: "/broadcasts/:broadcastUid/recipients/export",
    permission: "broadcasts",
    params: { broadcastUid: BroadcastUid },
    paramNotFound: { broadcastUid: "BROADCAST_NOT_FOUND" },
    query: RecipientExportQuery,
    summary: "A broadcast's recipients as CSV",
    description: "The recipients (the page's status filter), streamed batch by batch (docs/broadcasts.md).",
    handler: async ({ principal, params, query }) => {
      const { broadcastUid } = params;
      const stream = await recipientsCsv(principal, broadcastUid, query);
      await recordExport(principal, "broadcast-recipients", { broadcastUid, ...query });
      const status = query.status ? `-${query.status}` : "";
      return csvResponse(stream, `${broadcastUid}-recipients${status}.csv`);
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Reports",
    method: "GET",
    path: "/reports/export",
    permission: "reports",
    summary: "A table of the Reports page as CSV",
    description:
      "By day, by member or the heatmap, for the period, label and member the page shows (docs/reports.md): a small table (a row per day, member or hour of the week), written whole.",
    handler: async ({ principal, request }) => {
      const params = new URL(request.url).searchParams;
      const table = reportTableOf(params.get("table"));
      const days = reportPeriodOf(params.get("days"));
      const filters = reportFiltersOf(
        { label: params.get("label") ?? undefined, member: params.get("member") ?? undefined },
        await reportFilterOptions(principal),
      );
      const { csv, fileName } = await supportCsv(principal, table, days, new Date(), filters);
      await recordExport(principal, "support-report", { table, days, ...filters });
      return csvResponse(csv, fileName);
    },
  }),
];
