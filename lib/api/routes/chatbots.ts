// Chatbots (docs/chatbots.md): list, create, read, update (POST, at least one field) and
// the dry-run test. Sender-scoped as webhooks: senderId (query on GET, body on POST) or a
// number-scoped token; a global token without senderId reaches all the account's senders
// (create: the default sender). There is no DELETE: deactivate instead.

import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/chatbots/examples";
import {
  ChatbotCreateBody,
  ChatbotListPublic,
  ChatbotListQuery,
  ChatbotPublic,
  ChatbotSenderQuery,
  ChatbotTestBody,
  ChatbotTestPublic,
  ChatbotUid,
  ChatbotUpdateBody,
} from "@/lib/domains/chatbots/schemas";
import { toPublicChatbot } from "@/lib/domains/chatbots/serializers";
import { createChatbot, getChatbot, listChatbots, testChatbot, updateChatbot } from "@/lib/domains/chatbots/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Chatbots",
  sender: "resolve",
  params: { chatbotUid: ChatbotUid },
  paramNotFound: { chatbotUid: "CHATBOT_NOT_FOUND" },
} as const;
// Reads and updates by uid, and the list, reach every sender of the account without senderId.
const anySender = { ...common, senderOptions: { useDefault: false, requireSetup: false } } as const;

export const chatbotRoutes: AnyRoute[] = [
  route({
    ...anySender,
    method: "GET",
    path: "/chatbots",
    permission: "chatbots",
    example: examples.getChatbots,
    summary: "List chatbots",
    description: "Filter by senderId and status; a global token without senderId sees all senders' chatbots.",
    query: ChatbotListQuery,
    response: ChatbotListPublic,
    handler: async ({ principal, sender, query }) => {
      const { chatbots, total } = await listChatbots(principal, sender, query);
      return ok("Chatbots retrieved", {
        senderId: sender?.phoneNumber ?? null,
        scope: sender ? "sender" : "user",
        ...pageOf("chatbots", chatbots.map(toPublicChatbot), query, total),
      });
    },
  }),
  route({
    ...common,
    senderOptions: { requireSetup: false },
    method: "POST",
    path: "/chatbots",
    permission: "chatbots",
    example: examples.postChatbots,
    idempotent: "chatbot.create",
    summary: "Create a chatbot",
    description: "Creates a chatbot for a sender, INACTIVE unless status says otherwise.",
    body: ChatbotCreateBody,
    response: ChatbotPublic,
    successStatus: 201,
    handler: async ({ principal, sender, body }) => {
      const chatbot = await createChatbot(principal, sender, body.chatbot);
      return { status: 201, ...ok("Chatbot created", toPublicChatbot(chatbot)) };
    },
  }),
  route({
    ...anySender,
    method: "GET",
    path: "/chatbots/:chatbotUid",
    permission: "chatbots",
    example: examples.getChatbotsByChatbotUid,
    summary: "Read a chatbot",
    query: ChatbotSenderQuery,
    response: ChatbotPublic,
    errors: ["CHATBOT_NOT_FOUND"],
    handler: async ({ principal, sender, params }) =>
      ok("Chatbot retrieved", toPublicChatbot(await getChatbot(principal, sender, params.chatbotUid))),
  }),
  route({
    ...anySender,
    method: "POST",
    path: "/chatbots/:chatbotUid",
    permission: "chatbots",
    example: examples.postChatbotsByChatbotUid,
    summary: "Update a chatbot",
    description: "At least one field; at most one ACTIVE chatbot per sender.",
    body: ChatbotUpdateBody,
    response: ChatbotPublic,
    errors: ["CHATBOT_NOT_FOUND"],
    handler: async ({ principal, sender, params, body }) =>
      ok("Chatbot updated", toPublicChatbot(await updateChatbot(principal, sender, params.chatbotUid, body.chatbot))),
  }),
  route({
    ...anySender,
    method: "POST",
    path: "/chatbots/:chatbotUid/test",
    permission: "chatbots",
    example: examples.postChatbotsByChatbotUidTest,
    summary: "Test a chatbot",
    description: "Dry run: which rule would answer a text and what the bot would send; sends nothing.",
    body: ChatbotTestBody,
    response: ChatbotTestPublic,
    errors: ["CHATBOT_NOT_FOUND"],
    handler: async ({ principal, sender, params, body }) =>
      ok("Chatbot test", await testChatbot(principal, sender, params.chatbotUid, body)),
  }),
];
