// GET: the audit log's filtered entries as CSV, streamed batch by batch (docs/security.md
// "Audit log"). The export is itself recorded (export.downloaded) before the first row.
import { dashboardHandler } from "@/lib/dashboard/handler";
import { streamAuditCsv } from "@/lib/domains/audit/csv";
import { recordExport } from "@/lib/domains/audit/exports";
import { AuditFilters } from "@/lib/domains/audit/schemas";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("audit", async (p, request) => {
  const filters = AuditFilters.parse(Object.fromEntries(new URL(request.url).searchParams));
  await recordExport(p, "audit", filters);
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(streamAuditCsv(p, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
