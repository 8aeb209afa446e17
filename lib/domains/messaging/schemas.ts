// Send bodies (POST /send, /chat, /messages, /{phoneNumberId}/messages, a conversation's
// reply) and the receipt: shared by the API, the dashboard composer and inbox and the OpenAPI
// document.
import { z } from "zod";
import type { CodedIssueParams } from "@/lib/core/coded-issue";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import type { Version } from "@/lib/core/version";
import { SEND_ROUTES } from "@/lib/domains/messages/send-routes";
import { parsePhone, phoneField } from "@/lib/domains/senders/phone";
import { DIRECT_SEND_CATEGORIES } from "@/lib/domains/templates/direct-send";
import { checkInteractiveParts, INTERACTIVE_TYPES, Interactive } from "./interactive";
import { checkProviderInteractive } from "./interactive-provider";

export const CHAT_TYPES = [
  "text",
  "image",
  "document",
  "audio",
  "video",
  "sticker",
  "location",
  ...INTERACTIVE_TYPES,
  "reaction",
] as const;
export const MEDIA_TYPES = ["image", "document", "audio", "video", "sticker"] as const;

/** Our own send bodies: an international number, "+" and the country code (docs/messaging.md "Phone numbers"). */
export const Recipient = phoneField().describe("Recipient phone number, international: + and the country code");
/** The provider's own body: digits without "+" already carry the country code, as the provider reads them. */
const ProviderRecipient = phoneField({ digitsAreInternational: true }).describe(
  "Recipient phone number with its country code (the provider's form: with or without +)",
);

const SenderIdField = z.string().optional().describe("Sender phone number; omitted: the token's or default sender");
const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : v);
export const DirectSendCategoryField = z.preprocess(lower, z.enum(DIRECT_SEND_CATEGORIES));
export const TtlSeconds = z.number().int().min(30).max(2_592_000).describe("Message time-to-live in seconds");

export const TemplateRef = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15).default("en"),
  components: z.array(z.record(z.string(), z.unknown())).max(30).default([]).describe("Provider template components"),
});

/** POST /send: an approved template. Direct Send fields are only recognised to be refused on v3. */
export const SendBody = z.object({
  senderId: SenderIdField,
  to: Recipient,
  template: TemplateRef,
  category: z.unknown().optional().describe("Direct Send field: not supported here (v3 answers 400)"),
  directSend: z.unknown().optional().describe("Direct Send field: not supported here (v3 answers 400)"),
  ttlSeconds: z.unknown().optional().describe("Direct Send field: not supported here (v3 answers 400)"),
});
export type SendInput = z.infer<typeof SendBody>;

const DIRECT_SEND_FIELDS = ["category", "directSend", "ttlSeconds"] as const;

const v3OnlyDirectSend = (path: string) => (b: { category?: unknown }, ctx: z.RefinementCtx) => {
  if (b.category !== undefined)
    ctx.addIssue({ code: "custom", path: [path], message: "Direct Send is available on /api/v3 only" });
};

/** A media send's file: `id` (a mediaId from POST /media) or `link` (a public URL), exactly one (docs/media.md "Sending media"). */
export const MediaField = z
  .object({
    id: z.string().min(1).max(64).optional().describe("A mediaId (POST /media); the file must be ready"),
    link: z.url().optional().describe("A public https URL the provider fetches"),
    caption: z.string().max(1024).optional().describe("Not for audio and stickers"),
    filename: z.string().max(240).optional().describe("Documents: the name the contact sees"),
  })
  .superRefine((m, ctx) => {
    if ((m.id === undefined) === (m.link === undefined))
      ctx.addIssue({ code: "custom", path: ["id"], message: "media needs id or link (exactly one)" });
  });

// An emoji as the provider takes it: pictographs, flags, keycaps, skin tones and joiners.
const EMOJI_PART =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f|\u20e3|[#*0-9])+$/u;
const EMOJI_HEAD = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
const isEmoji = (e: string) => EMOJI_PART.test(e) && EMOJI_HEAD.test(e);

/** A reaction to a message of the conversation (docs/messaging.md "Reactions"). */
export const ReactionField = z
  .object({
    messageId: z
      .string()
      .min(1)
      .max(64)
      .describe("The messageUid of a message of this conversation, inbound or outbound (its thread entry)"),
    emoji: z
      .string()
      .max(32)
      .refine((e) => e === "" || isEmoji(e), 'one emoji, or "" to remove ours')
      .describe('One emoji; "" removes our reaction'),
  })
  .meta({
    id: "ReactionSend",
    examples: [
      { messageId: "cmsg_01a20a3ad725000022a52790df1cf", emoji: "👍" },
      { messageId: "cmsg_01a20a3ad725000022a52790df1cf", emoji: "" },
    ],
  });

/** A quoted reply: the message it answers (docs/messaging.md "Quoted replies"). */
const ReplyToField = z
  .string()
  .min(1)
  .max(64)
  .describe("The messageUid of a message of this conversation to quote (a quoted reply); the provider shows it above");

/** POST /chat: a session message; on v3 optionally Direct Send (category, ttlSeconds). */
export const ChatBody = z
  .object({
    senderId: SenderIdField,
    to: Recipient,
    type: z.enum(CHAT_TYPES).default("text"),
    text: z.string().min(1).max(4096).optional().describe("Text body (type text)"),
    previewUrl: z.boolean().optional(),
    media: MediaField.optional().describe("Media (types image, document, audio, video, sticker): {id} or {link}"),
    location: z
      .object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: z.string().max(200).optional(),
        address: z.string().max(500).optional(),
      })
      .optional(),
    interactive: Interactive.optional().describe("Types buttons, list, cta_url: the interactive message"),
    reaction: ReactionField.optional().describe("Type reaction: our reaction to a message of the conversation"),
    replyTo: ReplyToField.optional(),
    category: DirectSendCategoryField.optional().describe("v3 Direct Send: utility or authentication"),
    ttlSeconds: TtlSeconds.optional().describe("v3 Direct Send: time-to-live"),
  })
  .superRefine((b, ctx) => {
    if (b.type === "text" && !b.text)
      ctx.addIssue({ code: "custom", path: ["text"], message: "text is required for type text" });
    if ((MEDIA_TYPES as readonly string[]).includes(b.type) && !b.media)
      ctx.addIssue({ code: "custom", path: ["media"], message: `media is required for type ${b.type}` });
    if (b.type === "location" && !b.location)
      ctx.addIssue({ code: "custom", path: ["location"], message: "location is required for type location" });
    checkInteractiveParts(b.type, b.interactive, ctx, ["interactive"]);
    if (b.type === "reaction" && !b.reaction)
      ctx.addIssue({ code: "custom", path: ["reaction"], message: "reaction is required for type reaction" });
    if (b.replyTo !== undefined && (b.type === "reaction" || b.category))
      ctx.addIssue({
        code: "custom",
        path: ["replyTo"],
        message: "a reaction names its message in reaction.messageId, and Direct Send quotes nothing",
      });
    if (b.category && b.type !== "text")
      ctx.addIssue({ code: "custom", path: ["category"], message: "Direct Send supports type text only" });
    if (b.ttlSeconds !== undefined && !b.category)
      ctx.addIssue({
        code: "custom",
        path: ["ttlSeconds"],
        message: "ttlSeconds applies to Direct Send (set category)",
      });
  });
export type ChatInput = z.infer<typeof ChatBody>;

/** The key that keeps `to` as the client sent it: the provider echoes it as contacts[].input. */
export const TO_AS_SENT = "__toAsSent";

/**
 * POST /messages and /{phoneNumberId}/messages: the provider's own message body, or its
 * mark-as-read ({status: "read", message_id}), as the provider's SDKs send them
 * (docs/messaging.md "Provider SDKs").
 */
export const ProviderMessageBody = z.preprocess(
  (v) => (v && typeof v === "object" && "to" in v ? { ...v, [TO_AS_SENT]: String((v as { to: unknown }).to) } : v),
  z
    .looseObject({
      senderId: SenderIdField,
      messaging_product: z.literal("whatsapp").default("whatsapp"),
      recipient_type: z.literal("individual").optional(),
      status: z.literal("read").optional().describe('Mark-as-read: "read" with message_id (and no to)'),
      message_id: z.string().min(1).max(256).optional().describe("Mark-as-read: the inbound message's id (wamid…)"),
      typing_indicator: z
        .looseObject({ type: z.string() })
        .optional()
        .describe("Mark-as-read: also shows the contact the typing indicator (forwarded to the provider)"),
      context: z
        .looseObject({ message_id: z.string().min(1).max(256).describe("The quoted message's provider id (wamid…)") })
        .optional()
        .describe("A quoted reply: a message of this conversation"),
      to: ProviderRecipient.optional().describe("The recipient; required unless the body is a mark-as-read"),
      type: z.string().min(1).default("text"),
      text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }).optional(),
      template: z
        .looseObject({
          name: z.string().min(1).max(512),
          language: z.looseObject({ code: z.string().min(2).max(15) }),
          components: z.array(z.record(z.string(), z.unknown())).optional(),
        })
        .optional(),
      interactive: z
        .looseObject({ type: z.string().min(1) })
        .superRefine(checkProviderInteractive)
        .optional()
        .describe("type interactive: button, list and cta_url meet the limits of the Interactive schema"),
      category: DirectSendCategoryField.optional().describe("v3 Direct Send (provider-native category), type text"),
      ttl_seconds: TtlSeconds.optional(),
    })
    .superRefine((b, ctx) => {
      if (b.status === "read") {
        if (!b.message_id)
          ctx.addIssue({
            code: "custom",
            path: ["message_id"],
            message: "message_id is required to mark a message read",
          });
        return;
      }
      if (b.message_id)
        ctx.addIssue({ code: "custom", path: ["status"], message: 'status "read" is required with message_id' });
      if (b.to === undefined) ctx.addIssue({ code: "custom", path: ["to"], message: "Param to is required" });
      const part = (b as Record<string, unknown>)[b.type];
      if (!part || typeof part !== "object")
        ctx.addIssue({ code: "custom", path: [b.type], message: `Param ${b.type} is required for type ${b.type}` });
      if (b.category && b.type !== "text")
        ctx.addIssue({ code: "custom", path: ["category"], message: "Direct Send supports type text only" });
    }),
);
export type ProviderMessageInput = z.infer<typeof ProviderMessageBody>;
/** A send (not a mark-as-read): `to` is there. */
export type ProviderSendInput = ProviderMessageInput & { to: string };

/**
 * The Direct Send rule per API version (docs/messaging.md): v2 ignores the Direct Send fields of
 * POST /send and refuses category on /chat and /messages; v3 refuses them on /send (a
 * template send) and accepts them on /chat and /messages.
 */
export const SendBodies = {
  v2: SendBody,
  v3: SendBody.superRefine((b, ctx) => {
    const used = DIRECT_SEND_FIELDS.filter((f) => b[f] !== undefined);
    if (used.length === 0) return;
    const params: CodedIssueParams = {
      errorCode: "DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND",
      details: { fields: used },
    };
    ctx.addIssue({
      code: "custom",
      path: [],
      message: "Direct Send is not available on template sends; use POST /api/v3/chat with category",
      params,
    });
  }),
} as const satisfies Record<Version, z.ZodType>;
export const ChatBodies = {
  v2: ChatBody.superRefine(v3OnlyDirectSend("category")),
  v3: ChatBody,
} as const satisfies Record<Version, z.ZodType>;
export const ProviderMessageBodies = {
  v2: ProviderMessageBody.superRefine(v3OnlyDirectSend("category")),
  v3: ProviderMessageBody,
} as const satisfies Record<Version, z.ZodType>;

export const DirectSendInfo = z.object({
  category: z.enum(DIRECT_SEND_CATEGORIES),
  templateName: z.string(),
  metaTemplateId: z.string().nullable(),
  ttlSeconds: z.number().nullable(),
});

/** The provider's own send answer (POST /messages, /{phoneNumberId}/messages; docs/messaging.md). */
export const ProviderSendResponse = z
  .union([
    z.object({
      messaging_product: z.literal("whatsapp"),
      contacts: z.array(z.object({ input: z.string().describe("`to` as sent"), wa_id: z.string() })),
      messages: z.array(z.object({ id: z.string(), message_status: z.enum(["accepted", "queued"]) })),
    }),
    z.object({ success: z.literal(true) }).describe("A mark-as-read"),
  ])
  .meta({ id: "ProviderSendResponse" });

export const SendReceipt = z
  .object({
    messageUid: z.string().describe("Local message id"),
    messageId: z.string().nullable().describe("Provider message id; null while queued"),
    status: z.enum(["accepted", "queued"]),
    queued: z.boolean(),
    senderId: z.string(),
    phoneNumberId: z.string().nullable(),
    recipient: z.string(),
    type: z.string(),
    sendRoute: z.enum(SEND_ROUTES),
    template: z.object({ name: z.string(), language: z.string(), category: z.string().nullable() }).nullable(),
    createdAt: isoTimestamp(),
    directSend: DirectSendInfo.optional().describe("v3 /chat only, when Direct Send was requested"),
  })
  .meta({ id: "SendReceipt" });

const ComposerTo = z
  .string()
  .max(64)
  .describe("The recipient as typed: + and the country code, or national with country");
const PickedCountry = z.string().trim().max(2).optional().describe("The country picked in the form (like US), if any");

/**
 * The dashboard composer: a template or a session text from one sender (same rules as the API).
 * The recipient goes through the one parser with the country picked in the form, if any.
 */
export const ComposerBody = z
  .discriminatedUnion("mode", [
    z.object({
      mode: z.literal("template"),
      senderId: z.string().min(1, "Pick a sender"),
      to: ComposerTo,
      country: PickedCountry,
      template: TemplateRef,
    }),
    z.object({
      mode: z.literal("session"),
      senderId: z.string().min(1, "Pick a sender"),
      to: ComposerTo,
      country: PickedCountry,
      text: z.string().trim().min(1, "Write a message").max(4096),
    }),
  ])
  .transform(({ country, ...body }, ctx) => {
    const to = parsePhone(body.to, { country, countryPicker: true });
    if (to.ok) return { ...body, to: to.e164 };
    ctx.addIssue({ code: "custom", path: ["to"], message: to.message });
    return z.NEVER;
  });
export type ComposerInput = z.infer<typeof ComposerBody>;

const Quoting = { replyTo: ReplyToField.optional() };
const TextReply = z.object({
  type: z.literal("text"),
  text: z.object({ body: z.string().trim().min(1).max(4096), previewUrl: z.boolean().optional() }),
  ...Quoting,
});
const TemplateReply = z.object({ type: z.literal("template"), template: TemplateRef, ...Quoting });
/** A file sent by its mediaId (POST /media, the inbox's attachment): `type` is its kind (docs/media.md "Sending media"). */
const MediaReply = z.object({
  type: z.enum(MEDIA_TYPES),
  media: z.object({
    id: z.string().min(1).max(64).describe("A mediaId (POST /media); the file must be ready and of this kind"),
    caption: z.string().max(1024).optional().describe("Not for audio and stickers"),
    filename: z.string().max(240).optional().describe("Documents: the name the contact sees"),
  }),
  ...Quoting,
});
/** Reply buttons, a list or a link (interactive.ts): a session message like text. */
const InteractiveReply = z
  .object({ type: z.enum(INTERACTIVE_TYPES), interactive: Interactive, ...Quoting })
  .superRefine((m, ctx) => checkInteractiveParts(m.type, m.interactive, ctx, ["interactive"]));
/** Our reaction to a message of the conversation: not billed, refused past 30 days. */
const ReactionReply = z.object({ type: z.literal("reaction"), reaction: ReactionField });
const ReplyMessage = z.discriminatedUnion("type", [
  TextReply,
  TemplateReply,
  MediaReply,
  InteractiveReply,
  ReactionReply,
]);
export type ReplyMessageInput = z.infer<typeof ReplyMessage>;

/** POST /conversations/{uid}/messages and the inbox: a reply in a conversation (docs/conversations.md). */
export const ConversationReplyBody = z.object({
  senderId: z
    .string()
    .optional()
    .describe("Sender phone number; omitted: the token's sender, or (global token) every sender of the account"),
  message: ReplyMessage.describe(
    '{type: "text", text: {body}}, {type: "template", template: {name, language, components?}}, a file by id: {type: "image"|"video"|"audio"|"document"|"sticker", media: {id, caption?, filename?}}, {type: "buttons"|"list"|"cta_url", interactive}, or a reaction {type: "reaction", reaction: {messageId, emoji}}',
  ),
});
