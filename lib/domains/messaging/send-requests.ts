// The API's send bodies (POST /send, /chat, /messages; docs/messaging.md) as the one send of
// send.ts. The version rules are already applied by the per-version schemas (schemas.ts).
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";
import { chatPayload, providerPayload, templatePayload } from "./payloads";
import type { ChatInput, ProviderMessageInput, SendInput } from "./schemas";
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

/** POST /messages and /{phoneNumberId}/messages: the provider's own body. */
export function sendProviderMessage(p: Principal, sender: Sender, body: ProviderMessageInput): Promise<SendResult> {
  const payload = providerPayload(body);
  const text = (body.text as { body?: string } | undefined)?.body ?? "";
  const template =
    body.type === "template" && body.template
      ? { name: body.template.name, language: body.template.language.code }
      : undefined;
  const directSend = body.category ? { category: body.category, ttlSeconds: body.ttl_seconds, text } : undefined;
  return sendMessage(p, sender, { sendRoute: "messages", recipient: body.to, payload, template, directSend });
}
