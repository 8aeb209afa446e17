// The dashboard inbox's own pieces (docs/inbox.md): who a dashboard
// reply is from (the signed-in user's email), and one poll's worth of list and badge.

import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { SentBy } from "./outbound";
import type { ConversationListInput } from "./schemas";
import { type ConversationPage, listConversations, unreadConversations } from "./service";

/** A reply from the dashboard: sentBy dashboard, labelled with the user's email. */
export async function dashboardSentBy(p: Principal): Promise<SentBy> {
  if (!p.userId) return { by: "dashboard" };
  const user = await db.user.findFirst({
    where: { id: p.userId, customerId: p.customerId },
    select: { email: true },
  });
  return { by: "dashboard", label: user?.email ?? null };
}

/** The inbox list (unread first, then newest; or due soonest) and the unread badge of the same scope. */
export async function inboxPage(
  p: Principal,
  senderId: string | undefined,
  q: Omit<ConversationListInput, "senderId" | "waiting"> & { waiting?: boolean },
  order: "inbox" | "due" = "inbox",
): Promise<ConversationPage & { unread: number }> {
  const [page, unread] = await Promise.all([
    listConversations(p, senderId, q, order),
    unreadConversations(p, senderId),
  ]);
  return { ...page, unread };
}
