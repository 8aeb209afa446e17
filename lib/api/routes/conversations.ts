// Conversations (docs/conversations.md): the inbox's threads on /api/v2 and /api/v3.
// Sender-scoped as webhooks are: senderId (query on GET, body on POST) or a number-scoped
// token; a global token without senderId sees every sender of the account. Another
// sender's or customer's uid is CONVERSATION_NOT_FOUND. The reply is a send route.

import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/conversations/examples";
import { dashboardSentBy } from "@/lib/domains/conversations/inbox";
import { addNote, listNotes } from "@/lib/domains/conversations/notes";
import { sendReadReceipt } from "@/lib/domains/conversations/provider-read";
import {
  ConversationListPublic,
  ConversationListQuery,
  ConversationMessagesPublic,
  ConversationMessagesQuery,
  ConversationNoteBody,
  ConversationNotePublic,
  ConversationNotesPublic,
  ConversationPublic,
  ConversationSenderQuery,
  ConversationUid,
  ConversationUpdateBody,
} from "@/lib/domains/conversations/schemas";
import { toPublicConversation, toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import {
  getConversation,
  listConversations,
  listThread,
  updateConversation,
} from "@/lib/domains/conversations/service";
import { replyToConversation } from "@/lib/domains/messaging/conversation-reply";
import { DELIVERY_ERRORS, MEDIA_SEND_ERRORS } from "@/lib/domains/messaging/errors";
import * as sendExamples from "@/lib/domains/messaging/examples";
import { ConversationReplyBody, SendReceipt } from "@/lib/domains/messaging/schemas";
import { receiptResponse } from "@/lib/domains/messaging/serializers";
import { type AnyRoute, ok, route, SEND_RESPONSE_HEADERS } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "messaging",
  tag: "Conversations",
  tokenScope: "any",
  sender: "resolve",
  // A global token without senderId reads across all senders (scope "user").
  senderOptions: { useDefault: false, requireSetup: false },
  params: { conversationUid: ConversationUid },
  paramNotFound: { conversationUid: "CONVERSATION_NOT_FOUND" },
} as const;

export const conversationRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/conversations",
    permission: "inbox",
    example: examples.getConversations,
    summary: "List conversations",
    description: "Newest activity first; filter by senderId, status, unread, search text and assignee.",
    query: ConversationListQuery,
    response: ConversationListPublic,
    handler: async ({ principal, sender, query }) => {
      const { senderId: _s, ...filters } = query;
      const { conversations, total } = await listConversations(principal, sender?.id, filters);
      return ok("Conversations retrieved", {
        scope: sender ? "sender" : "user",
        senderId: sender?.phoneNumber ?? null,
        ...pageOf(
          "conversations",
          conversations.map((r) => toPublicConversation(r)),
          query,
          total,
        ),
      });
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/conversations/:conversationUid",
    permission: "inbox",
    example: examples.getConversationsByConversationUid,
    summary: "Read a conversation",
    description: "The window state, unread count and last message.",
    query: ConversationSenderQuery,
    response: ConversationPublic,
    errors: ["CONVERSATION_NOT_FOUND"],
    handler: async ({ principal, sender, params }) =>
      ok(
        "Conversation retrieved",
        toPublicConversation(await getConversation(principal, sender?.id, params.conversationUid)),
      ),
  }),
  route({
    ...common,
    method: "POST",
    path: "/conversations/:conversationUid",
    permission: "inbox",
    // The thread's close, reopen, read marks and assignee picker send it too, as the signed-in member.
    session: true,
    example: examples.postConversationsByConversationUid,
    summary: "Update a conversation",
    description: "Body {conversation: {status?: OPEN|CLOSED, markRead?: true, assignee?: member email | null}}.",
    body: ConversationUpdateBody,
    response: ConversationPublic,
    errors: ["CONVERSATION_NOT_FOUND", "VALIDATION_FAILED"],
    handler: async ({ principal, sender, params, body }) => {
      // A member closing it is the event's closedBy (their email, docs/inbox.md), and a member
      // marking it read sends the contact the read receipt (docs/inbox.md "Read receipts and
      // typing"); a token's update does neither, as before.
      const member = principal.via === "session";
      const closing = member && body.conversation.status === "CLOSED";
      const actor = closing ? ((await dashboardSentBy(principal)).label ?? null) : null;
      const uid = params.conversationUid;
      const row = await updateConversation(principal, sender?.id, uid, body.conversation, actor);
      if (member && body.conversation.markRead) await sendReadReceipt(principal, uid);
      return ok("Conversation updated", toPublicConversation(row));
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/conversations/:conversationUid/messages",
    permission: "inbox",
    example: examples.getConversationsByConversationUidMessages,
    summary: "List a conversation's messages",
    description: "Newest first: inbound, outbound with live status, and notes.",
    query: ConversationMessagesQuery,
    response: ConversationMessagesPublic,
    errors: ["CONVERSATION_NOT_FOUND"],
    handler: async ({ principal, sender, params, query }) => {
      const { conversation, messages, total } = await listThread(principal, sender?.id, params.conversationUid, query);
      return ok("Conversation messages retrieved", {
        conversationUid: conversation.id,
        ...pageOf("messages", messages.map(toPublicThreadMessage), query, total),
      });
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/conversations/:conversationUid/notes",
    permission: "inbox",
    session: true,
    example: examples.getConversationsByConversationUidNotes,
    summary: "List a conversation's notes",
    description: "The conversation's internal notes, newest first; never sent to the contact.",
    query: ConversationMessagesQuery,
    response: ConversationNotesPublic,
    errors: ["CONVERSATION_NOT_FOUND"],
    handler: async ({ principal, sender, params, query }) => {
      const { conversationUid, notes, total } = await listNotes(principal, sender?.id, params.conversationUid, query);
      return ok("Conversation notes retrieved", { conversationUid, ...pageOf("notes", notes, query, total) });
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/conversations/:conversationUid/notes",
    permission: "inbox",
    session: true,
    example: examples.postConversationsByConversationUidNotes,
    summary: "Write a note in a conversation",
    description: "An internal note, body {note: {text}}; never sent to the contact.",
    body: ConversationNoteBody,
    response: ConversationNotePublic,
    successStatus: 201,
    errors: ["CONVERSATION_NOT_FOUND"],
    handler: async ({ principal, sender, params, body }) => ({
      status: 201,
      ...ok("Note added", await addNote(principal, sender?.id, params.conversationUid, body.note.text)),
    }),
  }),
  route({
    ...common,
    method: "POST",
    path: "/conversations/:conversationUid/messages",
    permission: "inbox",
    // The inbox's reply box sends it too, as the signed-in member.
    session: true,
    example: sendExamples.postConversationsByConversationUidMessages,
    limit: "send",
    responseHeaders: SEND_RESPONSE_HEADERS,
    idempotent: "conversation.reply",
    summary: "Reply in a conversation",
    description:
      "Text, a file, buttons, a list or a link inside the customer service window, else a template; or our reaction to one of its messages.",
    body: ConversationReplyBody,
    response: SendReceipt,
    errors: [
      "CONVERSATION_NOT_FOUND",
      "WHATSAPP_SETUP_INCOMPLETE",
      "CUSTOMER_SERVICE_WINDOW_CLOSED",
      "REACTION_TOO_OLD",
      ...DELIVERY_ERRORS,
      ...MEDIA_SEND_ERRORS,
    ],
    handler: async ({ principal, sender, params, body, version }) => {
      // A member's reply is recorded as the dashboard's, with the member's email (the send service's own).
      const sent = await replyToConversation(principal, sender?.id, params.conversationUid, body.message);
      return receiptResponse(sent, sent.sender, version);
    },
  }),
];
