// POST: the segment form's live count of the rules being written (docs/automation.md
// "Segments"): checked as a save checks them and counted by the query a broadcast start makes
// its recipients with. A POST because the rules are a JSON body; it stores nothing.
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { SegmentCountBody } from "@/lib/domains/broadcasts/segment-schemas";
import { countSegmentRules } from "@/lib/domains/broadcasts/segments";

export const dynamic = "force-dynamic";

export const POST = dashboardHandler("broadcasts", async (p, request) => {
  const body = SegmentCountBody.parse(await readDashboardJson(request));
  return Response.json({ count: await countSegmentRules(p, body.rules) });
});
