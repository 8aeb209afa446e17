// GET: the inbox list (unread first, then newest; `sort=due`: SLA due soonest) with the unread badge; polled by the inbox.
// `assignee=me` is the signed-in member ("Mine"), `none` the unassigned ones.

import { pageBlock } from "@/lib/core/pagination";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { inboxPage } from "@/lib/domains/conversations/inbox";
import { ConversationListQuery } from "@/lib/domains/conversations/schemas";
import { toPublicConversation } from "@/lib/domains/conversations/serializers";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("inbox", async (p, request) => {
  const { sender: phone, sort, ...params } = Object.fromEntries(new URL(request.url).searchParams);
  const sender = phone ? await pageSender(p, phone) : undefined;
  const mine = params.assignee === "me" ? { assignee: p.member?.email } : {};
  const { senderId: _s, ...query } = ConversationListQuery.parse({ limit: "50", ...params, ...mine });
  const {
    conversations: rows,
    total,
    unread,
  } = await inboxPage(p, sender?.id, query, sort === "due" ? "due" : "inbox");
  const conversations = rows.map((r) => toPublicConversation(r));
  return Response.json({
    conversations,
    unread,
    pagination: pageBlock(query.page, query.limit, total, conversations.length),
  });
});
