// POST: the new-broadcast page's live count for the audience, mapping and pace being filled in
// (recipients, skipped by reason, estimate against the balance, sample values). A POST because
// the draft is a JSON body; it sends and stores nothing.
import { ApiError } from "@/lib/core/errors";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { estimateDraft } from "@/lib/domains/broadcasts/draft-estimate";
import { BroadcastDraftBody } from "@/lib/domains/broadcasts/schemas";
import { resolveSender } from "@/lib/domains/senders/service";

export const dynamic = "force-dynamic";

export const POST = dashboardHandler("broadcasts", async (p, request) => {
  const body = BroadcastDraftBody.parse(await readDashboardJson(request));
  const sender = await resolveSender(p, body.senderId, { useDefault: false, requireSetup: false });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
  return Response.json({ estimate: await estimateDraft(p, sender, body.broadcast) });
});
