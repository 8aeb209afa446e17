// The inbox's routes only the dashboard calls (session: "only", lib/api/route-definition.ts):
// what the reply box and the thread need and the public API has no route for.
import { assignableMembers } from "@/lib/domains/conversations/assignees";
import { listSavedReplies } from "@/lib/domains/conversations/saved-replies";
import { ConversationUid } from "@/lib/domains/conversations/schemas";
import { type AnyRoute, ok, route } from "../route-definition";
import { dashboardOnly } from "./common";

export const inboxDashboardRoutes: AnyRoute[] = [
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
    params: { conversationUid: ConversationUid },
    paramNotFound: { conversationUid: "CONVERSATION_NOT_FOUND" },
    summary: "Who a conversation can be assigned to",
    description:
      "Members whose role has the inbox, agents only when they may see the conversation's sender (the thread's assignee picker).",
    handler: async ({ principal, params }) =>
      ok("Assignable members retrieved", { members: await assignableMembers(principal, params.conversationUid) }),
  }),
];
