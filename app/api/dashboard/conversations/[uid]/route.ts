// GET: one conversation and its latest messages, oldest first (polled by the open thread), with
// the contact's blacklist entry as given (reason, source) when there is one;
// POST: {conversation: {status?, markRead?, markUnread?}} (close, reopen, mark read or unread).

import { PageQuery } from "@/lib/core/pagination";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { blacklistStanding } from "@/lib/domains/contacts/blacklist";
import { dashboardSentBy } from "@/lib/domains/conversations/inbox";
import { ConversationUpdateBody } from "@/lib/domains/conversations/schemas";
import { toPublicConversation, toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import { listThread, updateConversation } from "@/lib/domains/conversations/service";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const GET = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const query = PageQuery.parse({ limit: "100", ...Object.fromEntries(new URL(request.url).searchParams) });
  const { conversation, messages, total } = await listThread(p, undefined, uid, query);
  const blacklist = conversation.blacklisted
    ? await blacklistStanding(p, conversation.senderId, conversation.contactPhoneNumber)
    : null;
  return Response.json({
    conversation: toPublicConversation(conversation),
    blacklist,
    messages: messages.map(toPublicThreadMessage).reverse(),
    total,
  });
});

export const POST = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const body = ConversationUpdateBody.parse(await readDashboardJson(request));
  const closing = body.conversation.status === "CLOSED";
  const actor = closing ? ((await dashboardSentBy(p)).label ?? null) : null;
  const row = await updateConversation(p, undefined, uid, body.conversation, actor);
  return Response.json({ conversation: toPublicConversation(row) });
});
