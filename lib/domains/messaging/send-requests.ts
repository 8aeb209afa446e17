// The API's send bodies (POST /send, /chat, /messages; docs/messaging.md) as the one send of
// send.ts. The version rules are already applied by the per-version schemas (schemas.ts).

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { forwardProviderRead } from "@/lib/domains/conversations/provider-read";
import { markInboundRead } from "@/lib/domains/conversations/service";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";
import { chatPayload, providerPayload, templatePayload } from "./payloads";
import { quotedReply, withContext } from "./quoted-reply";
import { sendReaction } from "./reactions";
import {
  type ChatInput,
  type ProviderMessageInput,
  type ProviderSendInput,
  type SendInput,
  TO_AS_SENT,
} from "./schemas";
import { sendMessage } from "./send";

/** POST /send: an approved template. */
export function sendTemplate(p: Principal, sender: Sender, body: SendInput): Promise<SendResult> {
  return sendMessage(p, sender, {
    sendRoute: "send",
    recipient: body.to,
    payload: templatePayload(body),
    template: { name: body.template.name, language: body.template.language },
  });
}

/** POST /chat: a session message, or a Direct Send when category is set (v3). */
export async function sendChat(p: Principal, sender: Sender, body: ChatInput): Promise<SendResult> {
  if (body.type === "reaction" && body.reaction)
    return sendReaction(p, sender, body.to, body.reaction, "body.reaction");
  const directSend = body.category
    ? { category: body.category, ttlSeconds: body.ttlSeconds, text: body.text ?? "" }
    : undefined;
  const replyTo = body.replyTo
    ? await quotedReply(p, sender, body.to, { messageUid: body.replyTo }, "body.replyTo")
    : undefined;
  const payload = withContext(chatPayload(body), replyTo);
  return sendMessage(p, sender, { sendRoute: "chat", recipient: body.to, payload, directSend, replyTo });
}

/**
 * POST /messages and /{phoneNumberId}/messages: a send in the provider's own body, or the
 * provider's mark-as-read of an inbound message (docs/messaging.md "Provider SDKs").
 */
export async function answerProviderMessage(
  p: Principal,
  sender: Sender,
  body: ProviderMessageInput,
): Promise<{ read: true } | { read: false; sent: SendResult; toAsSent: string }> {
  if (body.status === "read") {
    const id = body.message_id ?? "";
    const read = await markInboundRead(p, sender.id, id);
    if (!read) {
      // The provider's answer to an id it does not know: (#100) Invalid parameter, HTTP 400.
      throw new ApiError("VALIDATION_FAILED", `message_id ${id} is no message received by this number`, {
        fields: [{ path: "body.message_id", message: "no message received by this number has this id" }],
        providerCode: 100,
      });
    }
    // Forwarded to the provider as asked, with the typing indicator when the body has one.
    const typing = body.typing_indicator !== undefined;
    await forwardProviderRead(p, read.conversationId, { providerMessageId: id, createdAt: read.createdAt }, typing);
    return { read: true };
  }
  const send = body as ProviderSendInput;
  const toAsSent = (body as { [TO_AS_SENT]?: string })[TO_AS_SENT] ?? send.to;
  return { read: false, sent: await sendProviderMessage(p, sender, send), toAsSent };
}

async function sendProviderMessage(p: Principal, sender: Sender, body: ProviderSendInput): Promise<SendResult> {
  const payload = providerPayload(body);
  const text = (body.text as { body?: string } | undefined)?.body ?? "";
  const template =
    body.type === "template" && body.template
      ? { name: body.template.name, language: body.template.language.code }
      : undefined;
  const directSend = body.category ? { category: body.category, ttlSeconds: body.ttl_seconds, text } : undefined;
  // A quoted reply names the message by its provider id, as the provider's body does.
  const quoted = body.context?.message_id;
  const replyTo = quoted
    ? await quotedReply(p, sender, body.to, { providerMessageId: quoted }, "body.context.message_id")
    : undefined;
  return sendMessage(p, sender, { sendRoute: "messages", recipient: body.to, payload, template, directSend, replyTo });
}
