// Sends (POST /send, /chat, /messages, /{phoneNumberId}/messages; limit class "send"),
// plus the template and report routes of the messaging domain. Thin: parse, call, shape.
// The Direct Send version rule lives in the per-version body schemas, Idempotency-Key in
// the router (the `idempotent` flag).

import type { ErrorCode } from "@/lib/core/errors";
import { PathText } from "@/lib/core/path-params";
import { DELIVERY_ERRORS, MEDIA_SEND_ERRORS } from "@/lib/domains/messaging/errors";
import * as examples from "@/lib/domains/messaging/examples";
import {
  ChatBodies,
  ProviderMessageBodies,
  ProviderSendResponse,
  SendBodies,
  SendReceipt,
} from "@/lib/domains/messaging/schemas";
import { answerProviderMessage, sendChat, sendTemplate } from "@/lib/domains/messaging/send-requests";
import { providerResponse, receiptResponse } from "@/lib/domains/messaging/serializers";
import { type AnyRoute, route, SEND_RESPONSE_HEADERS } from "../route-definition";
import { messagingOrderRoutes } from "./messaging-orders";
import { messagingReportRoutes } from "./messaging-reports";
import { messagingTemplateRoutes } from "./messaging-templates";

const send = {
  versions: ["v2", "v3"],
  limit: "send",
  responseHeaders: SEND_RESPONSE_HEADERS,
  feature: "messaging",
  tag: "Messaging",
  tokenScope: "any",
  method: "POST",
} as const;

/** Domain codes a send can answer (docs/messaging.md). */
const SEND_ERRORS = [
  ...DELIVERY_ERRORS,
  ...MEDIA_SEND_ERRORS,
  "CUSTOMER_SERVICE_WINDOW_CLOSED",
  "DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND",
] as const satisfies readonly ErrorCode[];
/** POST /chat also answers a reaction to a message older than 30 days. */
const CHAT_ERRORS = [...SEND_ERRORS, "REACTION_TOO_OLD"] as const satisfies readonly ErrorCode[];

const providerSend = {
  ...send,
  errorStyle: "provider",
  body: ProviderMessageBodies,
  idempotent: "messages",
  response: ProviderSendResponse,
  errors: SEND_ERRORS,
} as const;

export const messagingRoutes: AnyRoute[] = [
  // POST /send: an approved template message.
  route({
    ...send,
    path: "/send",
    permission: "messages.send",
    example: examples.postSend,
    sender: "resolve",
    idempotent: "send",
    summary: "Send a template message",
    description: "Sends an approved template message; the answer is the acceptance receipt.",
    body: SendBodies,
    response: SendReceipt,
    errors: SEND_ERRORS,
    handler: async ({ principal, sender, body, version }) =>
      receiptResponse(await sendTemplate(principal, sender, body), sender, version),
  }),
  // POST /chat: a session message; v3 adds Direct Send (category utility|authentication).
  route({
    ...send,
    path: "/chat",
    permission: "messages.send",
    example: examples.postChat,
    sender: "resolve",
    idempotent: "chat",
    summary: "Send a session message",
    description: "On v3, optionally a Direct Send (category, ttlSeconds).",
    body: ChatBodies,
    response: SendReceipt,
    errors: CHAT_ERRORS,
    handler: async ({ principal, sender, body, version }) =>
      receiptResponse(await sendChat(principal, sender, body), sender, version, true),
  }),
  // POST /messages: the provider's own request and response bodies and error shape.
  route({
    ...providerSend,
    path: "/messages",
    permission: "messages.send",
    example: examples.postMessages,
    sender: "resolve",
    summary: "Send a message, provider style",
    description: "Provider-compatible send: the provider's request, response and error bodies.",
    handler: async ({ principal, sender, body }) => {
      const answer = await answerProviderMessage(principal, sender, body);
      return answer.read
        ? { status: 200, raw: { success: true } }
        : providerResponse(answer.sent, sender, answer.toAsSent);
    },
  }),
  // POST /{phoneNumberId}/messages: the same, with the sender named by its provider id.
  route({
    ...providerSend,
    path: "/:phoneNumberId/messages",
    permission: "messages.send",
    example: examples.postByPhoneNumberIdMessages,
    sender: "phoneNumberId",
    // Any text: the sender resolution tells a provider phone number id from a path that is no route.
    params: { phoneNumberId: PathText },
    summary: "Send from a phone number id, provider style",
    description: "Provider-compatible send for the sender with this phone number id.",
    handler: async ({ principal, sender, body }) => {
      const answer = await answerProviderMessage(principal, sender, body);
      return answer.read
        ? { status: 200, raw: { success: true } }
        : providerResponse(answer.sent, sender, answer.toAsSent);
    },
  }),
  ...messagingOrderRoutes,
  ...messagingTemplateRoutes,
  ...messagingReportRoutes,
];
