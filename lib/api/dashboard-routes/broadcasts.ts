// The broadcast and segment forms' live counts, only the dashboard calls them (session: "only",
// lib/api/route-definition.ts): POSTs because the draft and the rules are JSON bodies; they send
// and store nothing. The public API counts a saved segment (GET /segments/{segmentUid}/count)
// and estimates a broadcast once created; a form being filled in has neither.
import { ApiError } from "@/lib/core/errors";
import { estimateDraft } from "@/lib/domains/broadcasts/draft-estimate";
import { BroadcastDraftBody } from "@/lib/domains/broadcasts/schemas";
import { SegmentCountBody } from "@/lib/domains/broadcasts/segment-schemas";
import { countSegmentRules } from "@/lib/domains/broadcasts/segments";
import { resolveSender } from "@/lib/domains/senders/service";
import { type AnyRoute, ok, route } from "../route-definition";
import { dashboardOnly } from "./common";

export const broadcastsDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Broadcasts",
    method: "POST",
    path: "/broadcasts/estimate",
    permission: "broadcasts",
    summary: "The new broadcast's live count",
    description:
      "Recipients, skipped by reason, the estimate against the balance and sample values of the draft being filled in (docs/broadcasts.md).",
    body: BroadcastDraftBody,
    handler: async ({ principal, body }) => {
      const sender = await resolveSender(principal, body.senderId, { useDefault: false, requireSetup: false });
      if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
      return ok("Broadcast estimated", { estimate: await estimateDraft(principal, sender, body.broadcast) });
    },
  }),
  // A static segment: the router prefers it to /segments/:segmentUid (its most specific shape),
  // should those be served to the session too.
  route({
    ...dashboardOnly,
    tag: "Segments",
    method: "POST",
    path: "/segments/count",
    permission: "broadcasts",
    summary: "The segment form's live count",
    description:
      'The rules being written, checked as a save checks them and counted by the query a broadcast start makes its recipients with (docs/automation.md "Segments").',
    body: SegmentCountBody,
    handler: async ({ principal, body }) =>
      ok("Segment counted", { count: await countSegmentRules(principal, body.rules) }),
  }),
];
