// Our send bodies -> the provider's message body (Cloud API shape).
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import { INTERACTIVE_TYPES, type InteractiveType } from "./interactive";
import { toProviderInteractive } from "./interactive-provider";
import { type ChatInput, type ProviderSendInput, type SendInput, TO_AS_SENT } from "./schemas";

const digits = (e164: string) => e164.replace(/^\+/, "");
const base = (to: string) => ({
  messaging_product: "whatsapp" as const,
  recipient_type: "individual" as const,
  to: digits(to),
});

export function templatePayload(body: SendInput): ProviderMessagePayload {
  return {
    ...base(body.to),
    type: "template",
    template: {
      name: body.template.name,
      language: { code: body.template.language },
      ...(body.template.components.length ? { components: body.template.components } : {}),
    },
  };
}

export function chatPayload(body: ChatInput): ProviderMessagePayload {
  if (body.type === "text") {
    return { ...base(body.to), type: "text", text: { body: body.text ?? "", preview_url: body.previewUrl ?? false } };
  }
  if (body.type === "location") return { ...base(body.to), type: "location", location: body.location };
  if (isInteractive(body.type) && body.interactive)
    return { ...base(body.to), type: "interactive", interactive: toProviderInteractive(body.type, body.interactive) };
  const media = body.media;
  const captioned = body.type !== "audio" && body.type !== "sticker";
  return {
    ...base(body.to),
    type: body.type,
    [body.type]: {
      ...(media?.id === undefined ? { link: media?.link } : { id: media.id }),
      ...(media?.caption && captioned ? { caption: media.caption } : {}),
      ...(media?.filename && body.type === "document" ? { filename: media.filename } : {}),
    },
  };
}

const isInteractive = (type: string): type is InteractiveType =>
  (INTERACTIVE_TYPES as readonly string[]).includes(type);

/** The provider-compatible body as it goes to the provider (our own fields removed). */
export function providerPayload(body: ProviderSendInput): ProviderMessagePayload {
  const {
    senderId: _s,
    category: _c,
    ttl_seconds: _t,
    [TO_AS_SENT]: _asSent,
    ...rest
  } = body as ProviderSendInput & {
    [TO_AS_SENT]?: string;
  };
  return { ...rest, messaging_product: "whatsapp", to: digits(body.to), type: body.type };
}
