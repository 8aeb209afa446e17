// GET: conversations with unread messages, for the navigation's badge (polled). The poll is
// also the member's presence: while a dashboard tab is open they count as online for
// auto-assignment (docs/inbox.md "Assignment").

import { dashboardHandler } from "@/lib/dashboard/handler";
import { touchPresence } from "@/lib/domains/conversations/auto-assign";
import { unreadConversations } from "@/lib/domains/conversations/service";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("inbox", async (p, request) => {
  const phone = new URL(request.url).searchParams.get("sender");
  const sender = phone ? await pageSender(p, phone) : undefined;
  const [unread] = await Promise.all([unreadConversations(p, sender?.id), touchPresence(p)]);
  return Response.json({ unread });
});
