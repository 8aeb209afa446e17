// The inbox's routes only the dashboard calls (session: "only", lib/api/route-definition.ts):
// what the list, the badge, the reply box and the thread need and the public API has no route
// for, or answers otherwise (docs/inbox.md).
import { pageBlock } from "@/lib/core/pagination";
import { blacklistStanding } from "@/lib/domains/contacts/blacklist";
import { assignableMembers } from "@/lib/domains/conversations/assignees";
import { touchPresence } from "@/lib/domains/conversations/auto-assign";
import { inboxPage } from "@/lib/domains/conversations/inbox";
import { showTyping } from "@/lib/domains/conversations/provider-read";
import { listSavedReplies } from "@/lib/domains/conversations/saved-replies";
import {
  ConversationUid,
  InboxListQuery,
  InboxSenderQuery,
  ThreadPageQuery,
} from "@/lib/domains/conversations/schemas";
import { toPublicConversation, toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import { listThread, unreadConversations } from "@/lib/domains/conversations/service";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { threadCsat } from "@/lib/domains/support/csat-report";
import { type AnyRoute, ok, route } from "../route-definition";
import { dashboardOnly } from "./common";

const oneConversation = {
  params: { conversationUid: ConversationUid },
  paramNotFound: { conversationUid: "CONVERSATION_NOT_FOUND" },
} as const;

export const inboxDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Inbox",
    method: "GET",
    path: "/conversations",
    permission: "inbox",
    query: InboxListQuery,
    summary: "The inbox list, with the unread badge's count",
    description:
      "Unread first, then newest (`sort=due`: SLA due soonest), 50 a page; `assignee=me` is the signed-in member (Mine), `none` the unassigned. Polled by the inbox.",
    handler: async ({ principal, query }) => {
      const { sender: phone, sort, ...filters } = query;
      const sender = phone ? await pageSender(principal, phone) : undefined;
      const assignee = filters.assignee === "me" ? principal.member?.email.toLowerCase() : filters.assignee;
      const page = await inboxPage(principal, sender?.id, { ...filters, assignee }, sort);
      const conversations = page.conversations.map((r) => toPublicConversation(r));
      return ok("Inbox retrieved", {
        conversations,
        unread: page.unread,
        pagination: pageBlock(filters.page, filters.limit, page.total, conversations.length),
      });
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Inbox",
    method: "GET",
    path: "/conversations/unread",
    permission: "inbox",
    query: InboxSenderQuery,
    summary: "The unread badge",
    description:
      "Conversations with unread messages (the chosen sender's, else every sender's the member sees). The poll is the member's presence too: while a dashboard tab is open they count as online for auto-assignment (docs/inbox.md \"Assignment\").",
    handler: async ({ principal, query }) => {
      const sender = query.sender ? await pageSender(principal, query.sender) : undefined;
      const [unread] = await Promise.all([unreadConversations(principal, sender?.id), touchPresence(principal)]);
      return ok("Unread conversations counted", { unread });
    },
  }),
  route({
    ...dashboardOnly,
    ...oneConversation,
    tag: "Inbox",
    method: "GET",
    path: "/conversations/:conversationUid",
    permission: "inbox",
    query: ThreadPageQuery,
    summary: "A page of the open thread",
    description:
      "The conversation and a page of its messages oldest first (100 unless asked), the contact's blacklist entry as given (reason, source) when there is one, and the contact's latest CSAT answer (null: none). Polled by the open thread.",
    handler: async ({ principal, params, query }) => {
      const uid = params.conversationUid;
      const [{ conversation, messages, total }, csat] = await Promise.all([
        listThread(principal, undefined, uid, query),
        threadCsat(principal, uid),
      ]);
      const blacklist = conversation.blacklisted
        ? await blacklistStanding(principal, conversation.senderId, conversation.contactPhoneNumber)
        : null;
      return ok("Conversation retrieved", {
        conversation: toPublicConversation(conversation),
        blacklist,
        csat,
        messages: messages.map(toPublicThreadMessage).reverse(),
        total,
      });
    },
  }),
  route({
    ...dashboardOnly,
    ...oneConversation,
    tag: "Inbox",
    method: "POST",
    path: "/conversations/:conversationUid/typing",
    permission: "inbox",
    summary: "The member is typing a reply",
    description:
      'The reply box calls it on input: the contact sees the typing indicator at the provider, at most once per 20 s per conversation and only while the contact\'s newest message waits for an answer (docs/inbox.md "Read receipts and typing").',
    handler: async ({ principal, params }) =>
      ok("Typing noted", { typing: await showTyping(principal, params.conversationUid) }),
  }),
  route({
    ...dashboardOnly,
    tag: "Inbox",
    method: "GET",
    path: "/saved-replies",
    permission: "inbox",
    summary: "The saved replies of the reply box",
    description: "The account's saved replies (their buttons too), for the reply box's `/` menu (docs/inbox.md).",
    handler: async ({ principal }) => {
      const replies = await listSavedReplies(principal);
      return ok("Saved replies retrieved", {
        savedReplies: replies.map(({ id, shortcut, text, buttons }) => ({ id, shortcut, text, buttons })),
      });
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Inbox",
    method: "GET",
    path: "/conversations/:conversationUid/assignees",
    permission: "inbox",
    ...oneConversation,
    summary: "Who a conversation can be assigned to",
    description:
      "Members whose role has the inbox, agents only when they may see the conversation's sender (the thread's assignee picker).",
    handler: async ({ principal, params }) =>
      ok("Assignable members retrieved", { members: await assignableMembers(principal, params.conversationUid) }),
  }),
];
