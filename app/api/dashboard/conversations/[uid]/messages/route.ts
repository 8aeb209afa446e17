// POST: a reply from the inbox (text inside the window, else a template) through the same
// service as POST /conversations/{uid}/messages, sent by the signed-in user.

import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { dashboardSentBy } from "@/lib/domains/conversations/inbox";
import { replyToConversation } from "@/lib/domains/messaging/conversation-reply";
import { ConversationReplyBody } from "@/lib/domains/messaging/schemas";
import { toReceipt } from "@/lib/domains/messaging/serializers";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const POST = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const body = ConversationReplyBody.parse(await readDashboardJson(request));
  const sent = await replyToConversation(p, undefined, uid, body.message, await dashboardSentBy(p));
  return Response.json({ message: toReceipt(sent, sent.sender, "v3", false) });
});
