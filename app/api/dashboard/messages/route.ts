// GET: the message log for the dashboard (polled); POST: the composer's send.
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { sendFromComposer } from "@/lib/domains/messaging/composer";
import { ComposerBody } from "@/lib/domains/messaging/schemas";
import { listMessageReport, toDashboardMessageRow } from "@/lib/domains/reports/messages";
import { MessageReportQuery } from "@/lib/domains/reports/schemas";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("inbox", async (p, request) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const sender = await pageSender(p, params.sender || undefined);
  const { sender: _s, ...rest } = params;
  const query = MessageReportQuery.parse({ limit: "25", ...rest });
  const { rows, pagination } = await listMessageReport(p, sender, query, "v3");
  return Response.json({ messages: rows.map(toDashboardMessageRow), pagination });
});

export const POST = dashboardHandler("inbox", async (p, request) => {
  const input = ComposerBody.parse(await readDashboardJson(request));
  return Response.json({ message: await sendFromComposer(p, input) });
});
