// GET: the explorer's filtered set as CSV, streamed batch by batch (fine for a million rows).

import { billingSender, parseExportView } from "@/lib/dashboard/billing-view";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { recordExport } from "@/lib/domains/audit/exports";
import { streamBillingCsv } from "@/lib/domains/billing/csv";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("billing", async (p, request) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = parseExportView(params);
  const sender = await billingSender(p, query.senderId);
  await recordExport(p, "billing", { ...query, senderId: sender?.id });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(streamBillingCsv(p, sender, query), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="billing-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
