// The API's send bodies (POST /send, /chat, /messages; docs/messaging.md) as the one send of
// send.ts. The version rules are already applied by the per-version schemas (schemas.ts).

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { markInboundRead } from "@/lib/domains/conversations/service";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";
import { chatPayload, providerPayload, templatePayload } from "./payloads";
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
export function sendChat(p: Principal, sender: Sender, body: ChatInput): Promise<SendResult> {
  const directSend = body.category
    ? { category: body.category, ttlSeconds: body.ttlSeconds, text: body.text ?? "" }
    : undefined;
  return sendMessage(p, sender, { sendRoute: "chat", recipient: body.to, payload: chatPayload(body), directSend });
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
    if (!(await markInboundRead(p, sender.id, id))) {
      // The provider's answer to an id it does not know: (#100) Invalid parameter, HTTP 400.
      throw new ApiError("VALIDATION_FAILED", `message_id ${id} is no message received by this number`, {
        fields: [{ path: "body.message_id", message: "no message received by this number has this id" }],
        providerCode: 100,
      });
    }
    return { read: true };
  }
  const send = body as ProviderSendInput;
  const toAsSent = (body as { [TO_AS_SENT]?: string })[TO_AS_SENT] ?? send.to;
  return { read: false, sent: await sendProviderMessage(p, sender, send), toAsSent };
}

function sendProviderMessage(p: Principal, sender: Sender, body: ProviderSendInput): Promise<SendResult> {
  const payload = providerPayload(body);
  const text = (body.text as { body?: string } | undefined)?.body ?? "";
  const template =
    body.type === "template" && body.template
      ? { name: body.template.name, language: body.template.language.code }
      : undefined;
  const directSend = body.category ? { category: body.category, ttlSeconds: body.ttl_seconds, text } : undefined;
  return sendMessage(p, sender, { sendRoute: "messages", recipient: body.to, payload, template, directSend });
}
