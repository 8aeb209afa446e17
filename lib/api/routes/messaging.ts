// Sends (POST /send, /chat, /messages, /{phoneNumberId}/messages; limit class "send"),
// plus the template and report routes of the messaging domain. Thin: parse, call, shape.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { fingerprint, type IdempotentResult, idempotencyKeyFrom, withIdempotency } from "@/lib/messaging/idempotency";
import { chatPayload, providerPayload, templatePayload } from "@/lib/messaging/payloads";
import { ChatBody, ProviderMessageBody, SendBody, SendReceipt } from "@/lib/messaging/schemas";
import { sendMessage } from "@/lib/messaging/send";
import { providerResponse, receiptResponse } from "@/lib/messaging/serializers";
import type { Sender } from "@/lib/senders/service";
import { type AnyRoute, type RouteResult, route } from "../route-definition";
import { messagingOrderRoutes } from "./messaging-orders";
import { messagingReportRoutes } from "./messaging-reports";
import { messagingTemplateRoutes } from "./messaging-templates";

const send = {
  versions: ["v2", "v3"],
  limit: "send",
  feature: "messaging",
  tag: "Messaging",
  tokenScope: "any",
  method: "POST",
} as const;

function need(sender: Sender | undefined): Sender {
  if (!sender) throw new Error("send route: sender resolution returned none");
  return sender;
}

function respond(r: IdempotentResult): RouteResult | Response {
  const headers = { ...r.headers, ...(r.replayed ? { "Idempotent-Replayed": "true" } : {}) };
  if (r.raw !== undefined) {
    return new Response(JSON.stringify(r.raw), {
      status: r.status,
      headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    });
  }
  return { status: r.status, message: r.message ?? "", data: r.data, headers };
}

const DIRECT_SEND_FIELDS = ["category", "directSend", "ttlSeconds"] as const;

export const messagingRoutes: AnyRoute[] = [
  // POST /send: an approved template message.
  route({
    ...send,
    path: "/send",
    sender: "resolve",
    summary: "Send an approved template message (acceptance receipt)",
    body: SendBody,
    response: SendReceipt,
    handler: async ({ principal, sender, body, version, request }) => {
      const s = need(sender);
      const used = DIRECT_SEND_FIELDS.filter((f) => body[f] !== undefined);
      if (version === "v3" && used.length > 0) {
        throw new ApiError(
          "DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND",
          "Direct Send is not available on template sends; use POST /api/v3/chat with category",
          { fields: used },
        );
      }
      const input = { to: body.to, template: body.template };
      const result = await withIdempotency(
        principal.customerId,
        idempotencyKeyFrom(request),
        () => fingerprint(`send:${s.id}`, input),
        async () =>
          receiptResponse(
            await sendMessage(principal, s, {
              sendRoute: "send",
              recipient: body.to,
              payload: templatePayload(body),
              template: { name: body.template.name, language: body.template.language },
            }),
            s,
            version,
          ),
      );
      return respond(result);
    },
  }),
  // POST /chat: a session message; v3 adds Direct Send (category utility|authentication).
  route({
    ...send,
    path: "/chat",
    sender: "resolve",
    summary: "Send a session message; on v3 optionally Direct Send (category, ttlSeconds)",
    body: ChatBody,
    response: SendReceipt,
    handler: async ({ principal, sender, body, version, request }) => {
      const s = need(sender);
      if (version === "v2" && body.category) {
        throw new ApiError("VALIDATION_FAILED", "body.category: Direct Send is available on /api/v3 only", {
          fields: [{ path: "body.category", message: "Direct Send is available on /api/v3 only" }],
        });
      }
      const { senderId: _s, ...input } = body;
      const directSend = body.category
        ? { category: body.category, ttlSeconds: body.ttlSeconds, text: body.text ?? "" }
        : undefined;
      const result = await withIdempotency(
        principal.customerId,
        idempotencyKeyFrom(request),
        () => fingerprint(`chat:${s.id}`, input),
        async () =>
          receiptResponse(
            await sendMessage(principal, s, {
              sendRoute: "chat",
              recipient: body.to,
              payload: chatPayload(body),
              directSend,
            }),
            s,
            version,
            true,
          ),
      );
      return respond(result);
    },
  }),
  // POST /messages: the provider's own request and response bodies and error shape.
  route({
    ...send,
    path: "/messages",
    sender: "resolve",
    errorStyle: "provider",
    summary: "Provider-compatible send (provider request, response and error bodies)",
    body: ProviderMessageBody,
    handler: async ({ principal, sender, body, version, request }) =>
      respond(await providerSend(principal, need(sender), body, version, request)),
  }),
  // POST /{phoneNumberId}/messages: the same, with the sender named by its provider id.
  route({
    ...send,
    path: "/:phoneNumberId/messages",
    sender: "none",
    errorStyle: "provider",
    summary: "Provider-compatible send for the sender with this phone number id",
    body: ProviderMessageBody,
    handler: async ({ principal, params, body, version, request }) => {
      const phoneNumberId = params.phoneNumberId ?? "";
      if (!/^\d{1,30}$/.test(phoneNumberId))
        throw new ApiError("NOT_FOUND", `No route for POST ${new URL(request.url).pathname}`);
      const s = await db.sender.findFirst({ where: { customerId: principal.customerId, phoneNumberId } });
      if (!s)
        throw new ApiError("SENDER_NOT_FOUND", `Phone number id ${phoneNumberId} is not connected to this account`);
      if (principal.scopedSenderId && principal.scopedSenderId !== s.id) {
        throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "This token is bound to another sender");
      }
      return respond(await providerSend(principal, s, body, version, request));
    },
  }),
  ...messagingOrderRoutes,
  ...messagingTemplateRoutes,
  ...messagingReportRoutes,
];

async function providerSend(
  principal: Parameters<typeof sendMessage>[0],
  s: Sender,
  body: import("@/lib/messaging/schemas").ProviderMessageInput,
  version: "v2" | "v3",
  request: Request,
): Promise<IdempotentResult> {
  if (version === "v2" && body.category) {
    throw new ApiError("VALIDATION_FAILED", "category: Direct Send is available on /api/v3 only", {
      fields: [{ path: "body.category", message: "Direct Send is available on /api/v3 only" }],
    });
  }
  const payload = providerPayload(body);
  const text = (body.text as { body?: string } | undefined)?.body ?? "";
  const template =
    body.type === "template" && body.template
      ? { name: body.template.name, language: body.template.language.code }
      : undefined;
  const directSend = body.category ? { category: body.category, ttlSeconds: body.ttl_seconds, text } : undefined;
  return withIdempotency(
    principal.customerId,
    idempotencyKeyFrom(request),
    () => fingerprint(`messages:${s.id}`, { ...payload, category: body.category, ttl: body.ttl_seconds }),
    async () =>
      providerResponse(
        await sendMessage(principal, s, { sendRoute: "messages", recipient: body.to, payload, template, directSend }),
        s,
        body.to,
      ),
  );
}
