// GET: one conversation and its latest messages, oldest first (polled by the open thread), with
// the contact's blacklist entry as given (reason, source) when there is one and the contact's
// latest CSAT answer (null: none);
// POST: {conversation: {status?, markRead?, markUnread?}} (close, reopen, mark read or unread);
// marking read (the thread opened with unread messages) also sends the contact the read receipt
// at the provider, unless the account turned read receipts off (docs/inbox.md "Read receipts and typing").

import { PageQuery } from "@/lib/core/pagination";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { blacklistStanding } from "@/lib/domains/contacts/blacklist";
import { dashboardSentBy } from "@/lib/domains/conversations/inbox";
import { sendReadReceipt } from "@/lib/domains/conversations/provider-read";
import { ConversationUpdateBody } from "@/lib/domains/conversations/schemas";
import { toPublicConversation, toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import { listThread, updateConversation } from "@/lib/domains/conversations/service";
import { threadCsat } from "@/lib/domains/support/csat-report";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const GET = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const query = PageQuery.parse({ limit: "100", ...Object.fromEntries(new URL(request.url).searchParams) });
  const [{ conversation, messages, total }, csat] = await Promise.all([
    listThread(p, undefined, uid, query),
    threadCsat(p, uid),
  ]);
  const blacklist = conversation.blacklisted
    ? await blacklistStanding(p, conversation.senderId, conversation.contactPhoneNumber)
    : null;
  return Response.json({
    conversation: toPublicConversation(conversation),
    blacklist,
    csat,
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
  if (body.conversation.markRead) await sendReadReceipt(p, uid);
  return Response.json({ conversation: toPublicConversation(row) });
});
