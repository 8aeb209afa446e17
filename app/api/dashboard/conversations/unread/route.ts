// GET: conversations with unread messages, for the navigation's badge (polled).

import { dashboardHandler } from "@/lib/dashboard/handler";
import { unreadConversations } from "@/lib/domains/conversations/service";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("inbox", async (p, request) => {
  const phone = new URL(request.url).searchParams.get("sender");
  const sender = phone ? await pageSender(p, phone) : undefined;
  return Response.json({ unread: await unreadConversations(p, sender?.id) });
});
