// Send results -> the acceptance receipt (our envelope) or the provider's answer shape,
// with the headers of docs/api/errors.md (X-Service-Message-Id, X-Service-Queued).
import type { Version } from "@/lib/core/version";
import type { StoredResponse } from "@/lib/domains/idempotency/service";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";

export function receiptHeaders(result: SendResult, sender: Sender): Record<string, string> {
  const headers: Record<string, string> = {};
  if (sender.phoneNumberId) headers["X-Service-Phone-Number-Id"] = sender.phoneNumberId;
  if (result.message.providerMessageId) headers["X-Service-Message-Id"] = result.message.providerMessageId;
  if (result.queued) headers["X-Service-Queued"] = "reconnect-queue";
  return headers;
}

export function toReceipt(result: SendResult, sender: Sender, version: Version, withDirectSend: boolean) {
  const m = result.message;
  const t = result.template;
  return {
    messageUid: m.id,
    messageId: m.providerMessageId,
    status: result.queued ? "queued" : "accepted",
    queued: result.queued,
    senderId: sender.phoneNumber,
    phoneNumberId: sender.phoneNumberId,
    recipient: m.recipient,
    type: m.type,
    sendRoute: m.sendRoute,
    template: t ? { name: t.name, language: t.language, category: t.category } : null,
    createdAt: m.createdAt.toISOString(),
    ...(withDirectSend && version === "v3" && m.directSendCategory
      ? {
          directSend: {
            category: m.directSendCategory,
            templateName: m.directSendTemplateName,
            metaTemplateId: m.metaTemplateId,
            ttlSeconds: m.ttlSeconds,
          },
        }
      : {}),
  };
}

export type ReceiptResponse = StoredResponse & { message: string; data: unknown };
export type ProviderResponse = StoredResponse & { raw: unknown };

export function receiptResponse(
  result: SendResult,
  sender: Sender,
  version: Version,
  withDirectSend = false,
): ReceiptResponse {
  return {
    status: 200,
    headers: receiptHeaders(result, sender),
    message: result.queued
      ? "Message accepted and queued: the sender is reconnecting"
      : "Message accepted by the provider; delivery updates follow through webhooks and reports",
    data: toReceipt(result, sender, version, withDirectSend),
  };
}

/** The provider's own answer: { messaging_product, contacts[], messages[] }. */
export function providerResponse(result: SendResult, sender: Sender, input: string): ProviderResponse {
  return { status: 200, headers: receiptHeaders(result, sender), raw: toProviderBody(result, input) };
}

export function toProviderBody(result: SendResult, input: string) {
  const m = result.message;
  const status: "queued" | "accepted" = result.queued ? "queued" : "accepted";
  return {
    messaging_product: "whatsapp" as const,
    contacts: [{ input, wa_id: m.recipient.replace(/^\+/, "") }],
    messages: [{ id: m.providerMessageId ?? m.id, message_status: status }],
  };
}
