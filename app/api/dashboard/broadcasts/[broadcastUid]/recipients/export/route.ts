// GET: a broadcast's recipients (the page's status filter) as CSV, streamed batch by batch
// (docs/broadcasts.md "For the dashboard"). The export is recorded (export.downloaded)
// before the first row, as every dashboard export.
import { dashboardHandler } from "@/lib/dashboard/handler";
import { recordExport } from "@/lib/domains/audit/exports";
import { recipientsCsv } from "@/lib/domains/broadcasts/recipients-csv";
import { RecipientExportQuery } from "@/lib/domains/broadcasts/schemas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ broadcastUid: string }> };

export const GET = dashboardHandler("broadcasts", async (p, request, { params }: Ctx) => {
  const { broadcastUid } = await params;
  const query = RecipientExportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const stream = await recipientsCsv(p, broadcastUid, query);
  await recordExport(p, "broadcast-recipients", { broadcastUid, ...query });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${broadcastUid}-recipients${query.status ? `-${query.status}` : ""}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
