// POST: the agent is typing a reply (the thread's reply box calls it on input): the contact
// sees the typing indicator at the provider, at most once per 20 s per conversation and only
// while the contact's newest message waits for an answer (docs/inbox.md "Read receipts and typing").

import { dashboardHandler } from "@/lib/dashboard/handler";
import { showTyping } from "@/lib/domains/conversations/provider-read";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const POST = dashboardHandler("inbox", async (p, _request, { params }: Ctx) => {
  const { uid } = await params;
  return Response.json({ typing: await showTyping(p, uid) });
});
