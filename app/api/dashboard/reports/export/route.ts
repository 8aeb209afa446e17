// GET: one table of the Reports page (by day, by member, the heatmap) as CSV, for the period
// the page shows with its label and member filters (docs/reports.md "The dashboard's Reports
// page"). The export is recorded (export.downloaded).
import { dashboardHandler } from "@/lib/dashboard/handler";
import { recordExport } from "@/lib/domains/audit/exports";
import {
  reportFilterOptions,
  reportFiltersOf,
  reportPeriodOf,
  reportTableOf,
  supportCsv,
} from "@/lib/domains/support/dashboard";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("reports", async (p, request) => {
  const params = new URL(request.url).searchParams;
  const table = reportTableOf(params.get("table"));
  const days = reportPeriodOf(params.get("days"));
  const filters = reportFiltersOf(
    { label: params.get("label") ?? undefined, member: params.get("member") ?? undefined },
    await reportFilterOptions(p),
  );
  const { csv, fileName } = await supportCsv(p, table, days, new Date(), filters);
  await recordExport(p, "support-report", { table, days, ...filters });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
});
