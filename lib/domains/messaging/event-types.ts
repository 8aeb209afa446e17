// The events about messages (docs/event-pipeline.md "Events"): a status move of a message this
// service sent (message.status.accepted is emitted when the provider accepts a send,
// accepted-event.ts; the others by the callback ingest from the provider's statuses), and a
// message a contact sent (message.inbound.<type>, by the callback ingest).
import { z } from "zod";
import { InteractiveReplyFields } from "@/lib/domains/conversations/schemas";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";
import { isMediaKind } from "@/lib/domains/media/kinds";
import { MessageMediaFacts, type MessageMediaT } from "@/lib/domains/media/schemas";

const STATUSES = ["accepted", "sent", "delivered", "read", "failed"] as const;

const StatusData = z.object({
  messageId: z.string(),
  messageUid: z
    .string()
    .optional()
    .describe("The message's uid in this service; on message.status.accepted, which the service emits when it sends"),
  billingUid: z
    .string()
    .nullable()
    .describe("The billing record of the status; null on message.status.accepted (not billed yet)"),
  recipientId: z.string().nullable(),
  status: z.enum(STATUSES),
  previousStatus: z.string().nullable(),
  timestamp: EventTime,
  pricing: z
    .object({
      billable: z.boolean().nullable(),
      billingClass: z.string().nullable(),
      pricingModel: z.string().nullable(),
      pricingCategory: z.string().nullable(),
      templateType: z.string().nullable(),
      pricingType: z.string().nullable(),
      rate: z.number(),
    })
    .nullable(),
  conversation: z.object({ id: z.string().nullable(), originType: z.string().nullable() }).nullable(),
  errors: z.array(
    z.object({ code: z.number().nullable(), title: z.string().nullable(), message: z.string().nullable() }).loose(),
  ),
  broadcastUid: z.string().optional().describe("Set when the message was sent by a broadcast"),
  mediaId: z
    .string()
    .optional()
    .describe("Set when the message sent a file by mediaId (a media message, a template's media header)"),
  media: MessageMediaFacts.optional().describe(
    "The file it sent by mediaId, as it is when the status arrives (a file deleted since is `unavailable`); " +
      "set with mediaId",
  ),
});

const STATUS_DESCRIPTIONS: Record<(typeof STATUSES)[number], string> = {
  accepted: "The provider accepted an outgoing message for delivery.",
  sent: "An outgoing message left the provider towards the recipient.",
  delivered: "An outgoing message reached the recipient's device.",
  read: "The recipient read an outgoing message.",
  failed: "An outgoing message could not be delivered (terminal).",
};

const statusEvent = <S extends (typeof STATUSES)[number]>(status: S) =>
  defineEvent({
    type: `message.status.${status}`,
    description: STATUS_DESCRIPTIONS[status],
    schema: StatusData,
    example: {
      messageId: "wamid.example.1",
      billingUid: "cm3example0001",
      recipientId: "15550100002",
      status,
      previousStatus: status === "accepted" ? null : "accepted",
      timestamp: EXAMPLE_AT,
      pricing:
        status === "sent"
          ? {
              billable: true,
              billingClass: "utility",
              pricingModel: "PMP",
              pricingCategory: "utility",
              templateType: null,
              pricingType: "regular",
              rate: 0.004,
            }
          : null,
      conversation: status === "sent" ? { id: "conv.example", originType: "utility" } : null,
      errors: status === "failed" ? [{ code: 131026, title: "Message undeliverable", message: null }] : [],
      ...(status === "delivered"
        ? {
            mediaId: "med_5f1c0e9a2b7d4c3e8f6a1b2c3d4e5f60",
            media: {
              mediaId: "med_5f1c0e9a2b7d4c3e8f6a1b2c3d4e5f60",
              kind: "document" as const,
              mimeType: "application/pdf",
              sha256: "3a5f2c1e9b7d4c6a8e0f1b2d3c4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4",
              fileSize: 48213,
              filename: "label.pdf",
              caption: "Your return label",
              status: "ready" as const,
            },
          }
        : {}),
    },
  });

export type MessageEventStatus = (typeof STATUSES)[number];

/** Whether a status has its message.status event (played, a read-level status, has none). */
export const isMessageEventStatus = (status: string): status is MessageEventStatus =>
  (STATUSES as readonly string[]).includes(status);

export const MESSAGE_STATUS_EVENTS = {
  accepted: statusEvent("accepted"),
  sent: statusEvent("sent"),
  delivered: statusEvent("delivered"),
  read: statusEvent("read"),
  failed: statusEvent("failed"),
};

/** The message types a contact may send, what each is, and an example of the provider's object. */
const INBOUND_TYPES = {
  text: ["a text message", { body: "Hello, is my order on its way?" }],
  image: [
    "an image",
    {
      id: "1043251337894512",
      mime_type: "image/jpeg",
      sha256: "9b74c9897bac770ffc029102a200c5de5f9b1c4b1d6d8a3c6c1f4e0a7b2d3e4f",
      caption: "The parcel",
    },
  ],
  audio: ["an audio message or voice note", { id: "media.2", mime_type: "audio/ogg; codecs=opus", voice: true }],
  video: ["a video", { id: "media.3", mime_type: "video/mp4" }],
  document: ["a document", { id: "media.4", mime_type: "application/pdf", filename: "invoice.pdf" }],
  sticker: ["a sticker", { id: "media.5", mime_type: "image/webp", animated: false }],
  location: ["a location", { latitude: 52.52, longitude: 13.405, name: "Office" }],
  contacts: [
    "one or more contact cards",
    [{ name: { formatted_name: "Ada Lovelace" }, phones: [{ phone: "+15550100002" }] }],
  ],
  interactive: [
    "a reply to an interactive message (list or reply button)",
    { type: "button_reply", button_reply: { id: "yes", title: "Yes" } },
  ],
  button: ["a tap on a template quick-reply button", { payload: "CONFIRM", text: "Confirm" }],
  reaction: [
    "a reaction to a message (an empty emoji removes theirs)",
    { message_id: "wamid.example.1", emoji: "👍", messageId: "cmsg_01a20a3ad725000022a52790df1cf" },
  ],
} as const satisfies Record<string, readonly [string, unknown]>;

export type InboundType = keyof typeof INBOUND_TYPES;

/** A media message's file, kept on arrival (docs/media.md "Inbound media"). */
const mediaField = (type: string) =>
  isMediaKind(type)
    ? {
        media: MessageMediaFacts.nullable().describe(
          "The file this service keeps for it: `pending` when the event is sent (it is fetched from the provider " +
            "meanwhile), then served by GET /media/{mediaId}/content; null when the message named no file",
        ),
      }
    : {};

const exampleMedia = (type: InboundType): MessageMediaT | undefined => {
  if (!isMediaKind(type)) return undefined;
  const part = INBOUND_TYPES[type][1] as { mime_type: string; sha256?: string; caption?: string; filename?: string };
  return {
    mediaId: "med_5f1c0e9a2b7d4c3e8f6a1b2c3d4e5f60",
    kind: type,
    mimeType: part.mime_type.split(";")[0] ?? part.mime_type,
    sha256: part.sha256 ?? null,
    fileSize: null,
    ...(part.filename ? { filename: part.filename } : {}),
    ...(part.caption ? { caption: part.caption } : {}),
    status: "pending",
  };
};

const inboundData = (type: string) =>
  z
    .object({
      messageId: z.string(),
      conversationUid: z.string().nullable(),
      from: z.string().nullable(),
      contactName: z.string().nullable(),
      timestamp: EventTime,
      type: z.literal(type),
      [type]:
        type === "reaction"
          ? z
              .looseObject({
                message_id: z.string().describe("The provider's: the provider id of the message reacted to"),
                emoji: z.string().describe('The emoji; "" when the contact removed their reaction'),
                messageId: z
                  .string()
                  .nullable()
                  .describe(
                    "The messageUid of the message reacted to in the conversation's thread (its reactions " +
                      "show the change); null when it is not one of its",
                  ),
              })
              .describe("The provider's reaction object, with the message reacted to resolved")
          : z.unknown().describe(`The provider's ${type} object, as received`),
      context: z
        .looseObject({
          from: z.string().optional().describe("The provider's: who sent the quoted message"),
          id: z.string().optional().describe("The provider's: the quoted message's provider id"),
          messageId: z
            .string()
            .nullable()
            .describe("The quoted message's messageUid in the conversation's thread; null when it is not one of its"),
          providerMessageId: z.string().nullable().describe("The quoted message's provider id (wamid…)"),
        })
        .nullable()
        .describe("Set when the contact quoted a message (a quoted reply, or the message a tap answers); else null"),
      ...(type === "interactive"
        ? {
            reply: InteractiveReplyFields.optional().describe(
              "A tap on reply buttons or a pick from a list: the button's or row's id and title",
            ),
          }
        : {}),
      ...mediaField(type),
    })
    .loose();

const inboundEvent = (type: InboundType) =>
  defineEvent({
    type: `message.inbound.${type}`,
    description: `A customer sent ${INBOUND_TYPES[type][0]}.`,
    schema: inboundData(type),
    example: {
      messageId: "wamid.example.2",
      conversationUid: "cm3conversation01",
      from: "15550100002",
      contactName: "Ada Lovelace",
      timestamp: EXAMPLE_AT,
      type,
      [type]: INBOUND_TYPES[type][1],
      context:
        type === "interactive"
          ? {
              from: "15550001234",
              id: "wamid.example.1",
              messageId: "cmsg_01a20a3ad725000022a52790df1cf",
              providerMessageId: "wamid.example.1",
            }
          : null,
      ...(type === "interactive" ? { reply: { type: "button_reply" as const, id: "yes", title: "Yes" } } : {}),
      ...(isMediaKind(type) ? { media: exampleMedia(type) } : {}),
    },
  });

export const INBOUND_MESSAGE_EVENTS = Object.fromEntries(
  (Object.keys(INBOUND_TYPES) as InboundType[]).map((type) => [type, inboundEvent(type)]),
) as Record<InboundType, ReturnType<typeof inboundEvent>>;
