// One zod module for conversations (docs/conversations.md): list and thread queries, the
// update body, and the public shapes. The API, the dashboard inbox and the OpenAPI document
// import these. The reply body is a send's (lib/domains/messaging/schemas.ts).
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { MessageMedia } from "@/lib/domains/media/schemas";
import { MemberEmail } from "@/lib/domains/members/schemas";
import { ConversationSlaPublic } from "@/lib/domains/sla/schemas";
import { INTERACTIVE_TYPES } from "./interactive-read";

export const CONVERSATION_STATUSES = ["OPEN", "CLOSED"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const SENT_BY = ["contact", "api", "dashboard", "chatbot", "automation", "system"] as const;
export type SentByKind = (typeof SENT_BY)[number];
export const DIRECTIONS = ["inbound", "outbound", "system"] as const;
export type Direction = (typeof DIRECTIONS)[number];
/** How a list is ordered: newest activity first (API), or unread first, then newest (the inbox). */
export const LIST_ORDERS = ["recent", "inbox"] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];
/** The inbox may also sort by the soonest SLA due time (docs/reports.md "SLA policies"), none last. */
export type InboxOrder = ListOrder | "due";

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

const SenderIdField = z
  .string()
  .optional()
  .describe("Sender phone number; omitted: the token's sender, or (global token) every sender of the account");

/** A path id: a value that is not an id we issue names no conversation, and is not looked up. */
export const ConversationUid = PublicId.describe("The conversation's uid (conv_…)");

export const ConversationListQuery = PageQuery.extend({
  senderId: SenderIdField,
  status: z
    .preprocess(blankAsAbsent, z.preprocess(upper, z.enum(CONVERSATION_STATUSES)).optional())
    .describe("OPEN or CLOSED"),
  unread: z
    .preprocess(blankAsAbsent, z.enum(["true", "false"]).optional())
    .transform((v) => v === "true")
    .describe("true: only conversations with unread messages"),
  waiting: z
    .preprocess(blankAsAbsent, z.enum(["true", "false"]).optional())
    .transform((v) => v === "true")
    .describe("true: only conversations a chatbot handed off, waiting for a person's reply"),
  search: z
    .preprocess(blankAsAbsent, z.string().trim().max(100).optional())
    .describe("Part of the contact's phone number or name (case-insensitive)"),
  assignee: z
    .preprocess(blankAsAbsent, z.string().trim().toLowerCase().max(254).optional())
    .describe("A member's email: the conversations assigned to them; none: the unassigned ones"),
  label: z
    .preprocess(blankAsAbsent, z.string().trim().max(40).optional())
    .describe("A label's name (whatever the case): only the conversations carrying it"),
});
export type ConversationListInput = z.infer<typeof ConversationListQuery>;

export const ConversationSenderQuery = z.object({ senderId: SenderIdField });

// The dashboard inbox's own queries (lib/api/dashboard-routes/inbox.ts, docs/inbox.md).

/** The badge's and the list's sender: a phone number of the page's sender picker; omitted, every sender the member sees. */
export const InboxSenderQuery = z.object({
  sender: z
    .preprocess(blankAsAbsent, z.string().optional())
    .describe("A sender's phone number; omitted: every sender the member sees"),
});

/**
 * The inbox list: the API's filters (its senderId is `sender` here), unread first then newest,
 * or `sort=due` SLA due soonest (any other sort is the inbox's); `assignee=me` is the signed-in member.
 */
export const InboxListQuery = ConversationListQuery.omit({ senderId: true }).extend({
  ...InboxSenderQuery.shape,
  sort: z
    .unknown()
    .optional()
    .transform((v): "inbox" | "due" => (v === "due" ? "due" : "inbox"))
    .describe("due: the soonest SLA due time first; else unread first, then newest"),
});

/** A page of the open thread: 100 messages unless the page asks otherwise. */
export const ThreadPageQuery = PageQuery.extend({
  limit: z.preprocess((v) => (v === undefined ? "100" : v), PageQuery.shape.limit),
});

export const ConversationMessagesQuery = PageQuery.extend({ senderId: SenderIdField });

export const ConversationUpdateBody = z.object({
  senderId: SenderIdField,
  conversation: z
    .object({
      status: z.preprocess(upper, z.enum(CONVERSATION_STATUSES)).optional().describe("OPEN or CLOSED"),
      markRead: z.literal(true).optional().describe("true: set unreadCount to 0"),
      assignee: MemberEmail.nullable()
        .optional()
        .describe(
          "A member's email to assign it to (a member of the account who may see its sender), or null to unassign",
        ),
      markUnread: z
        .literal(true)
        .optional()
        .describe("true: mark it unread again (unreadCount at least 1), to come back to it"),
    })
    .refine(
      (c) =>
        c.status !== undefined || c.markRead !== undefined || c.markUnread !== undefined || c.assignee !== undefined,
      { message: "at least one of status, markRead, markUnread, assignee is required" },
    )
    .refine((c) => !(c.markRead && c.markUnread), {
      message: "markRead and markUnread cannot both be true",
    }),
});
export type ConversationPatch = z.infer<typeof ConversationUpdateBody>["conversation"];

// Public shapes (data of the success envelope).

export const AssigneePublic = z
  .object({ email: z.string(), name: z.string().nullable() })
  .nullable()
  .describe("The member the conversation is assigned to; null: unassigned");
export type PublicAssignee = z.infer<typeof AssigneePublic>;

export const ConversationPublic = z
  .object({
    conversationUid: z.string(),
    uid: z.string(),
    senderId: z.string().describe("Sender phone number (E.164)"),
    phoneNumberId: z.string().nullable(),
    contactPhoneNumber: z.string(),
    contactName: z.string().nullable(),
    status: z.enum(CONVERSATION_STATUSES),
    unreadCount: z.number().int(),
    lastMessageAt: isoTimestamp(),
    lastInboundAt: isoTimestamp().nullable(),
    windowExpiresAt: isoTimestamp().nullable(),
    windowOpen: z.boolean(),
    lastMessagePreview: z.string(),
    blacklisted: z.boolean().describe("The contact is on this sender's blacklist: sends are refused"),
    assignee: AssigneePublic,
    waitingForPerson: z
      .boolean()
      .describe("A chatbot handed the conversation off and no person has replied yet (conversation.handoff)"),
    handoffAt: isoTimestamp().nullable().describe("When the chatbot handed off; null when no one is waiting"),
    firstResponseSeconds: z
      .number()
      .int()
      .nullable()
      .describe(
        "Seconds from the first inbound that waited for a person (after a chatbot's hand-off: from the hand-off) to a person's first reply, in the current period; null until a person replied",
      ),
    resolutionSeconds: z
      .number()
      .int()
      .nullable()
      .describe(
        "Seconds from the current period's first inbound to its close; null while open (a reopened conversation starts a new period)",
      ),
    sla: ConversationSlaPublic,
    labels: z.array(z.string()).describe("The names of the labels it carries, sorted by name"),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Conversation" });
export type PublicConversation = z.infer<typeof ConversationPublic>;

/** The message an entry quotes (a quoted reply, the message a tap answers). */
export const ReplyToPublic = z
  .object({
    messageId: z
      .string()
      .nullable()
      .describe("The quoted entry's messageUid; null when it is not of this conversation"),
    providerMessageId: z.string().nullable().describe("The quoted message's provider id (wamid…)"),
    preview: z.string().nullable().describe("A one-line preview of the quoted message; null when unknown"),
  })
  .meta({ id: "ReplyTo" });

/** A contact's tap on reply buttons or pick from a list (unnamed: the events' schemas inline it). */
export const InteractiveReplyFields = z.object({
  type: z.enum(["button_reply", "list_reply"]),
  id: z.string().describe("The button's or row's id as sent"),
  title: z.string(),
  description: z.string().optional().describe("A list row's description"),
});
const InteractiveReplyPublic = InteractiveReplyFields.meta({ id: "InteractiveReply" });

export const REACTION_SIDES = ["contact", "business"] as const;

/** A reaction to an entry: the latest of each side (docs/messaging.md "Reactions"). */
export const ReactionPublic = z
  .object({
    by: z.enum(REACTION_SIDES).describe("contact: the contact's reaction; business: ours (an agent's or the API's)"),
    emoji: z.string().describe("The emoji"),
    at: isoTimestamp(),
  })
  .meta({ id: "Reaction" });

export const ConversationMessagePublic = z
  .object({
    messageUid: z.string(),
    conversationUid: z.string(),
    direction: z.enum(DIRECTIONS),
    type: z.string(),
    content: z.record(z.string(), z.unknown()).describe("The type's object, e.g. {text: {body}}"),
    status: z.string().describe("received (inbound), note (system), else accepted|queued|sent|delivered|read|failed"),
    providerMessageId: z.string().nullable(),
    sentBy: z.enum(SENT_BY),
    sentByLabel: z.string().nullable(),
    errorCode: z.number().int().nullable(),
    errorMessage: z.string().nullable(),
    timestamp: isoTimestamp(),
    media: MessageMedia.nullable().describe(
      "The file of an image, video, audio, document or sticker message; null for other messages",
    ),
    replyTo: ReplyToPublic.nullable().describe(
      "The message this one quotes or answers (a tap's message); null if none",
    ),
    reactions: z
      .array(ReactionPublic)
      .describe("The reactions to this message, at most one per side (a removed one is gone); empty if none"),
    interactive: z
      .looseObject({ type: z.enum(INTERACTIVE_TYPES) })
      .nullable()
      .describe("An outbound interactive message as sent (the Interactive schema with its type); null for others"),
    reply: InteractiveReplyPublic.nullable().describe("An inbound tap on buttons or pick from a list; null for others"),
  })
  .meta({ id: "Message" });
export type PublicConversationMessage = z.infer<typeof ConversationMessagePublic>;

export const ConversationListPublic = z.object({
  scope: z.enum(["sender", "user"]),
  senderId: z.string().nullable(),
  conversations: z.array(ConversationPublic),
  items: z.array(ConversationPublic),
  pagination: PageBlockSchema,
});

export const ConversationMessagesPublic = z.object({
  conversationUid: z.string(),
  messages: z.array(ConversationMessagePublic),
  items: z.array(ConversationMessagePublic),
  pagination: PageBlockSchema,
});

// Internal notes (docs/inbox.md "Internal notes"): never sent to the contact.

export const NOTE_MAX_LENGTH = 4096;

export const NoteText = z
  .string()
  .trim()
  .min(1, "Write the note")
  .max(NOTE_MAX_LENGTH, `At most ${NOTE_MAX_LENGTH} characters`)
  .describe("The note (at most 4,096 characters); never sent to the contact");

export const ConversationNoteBody = z.object({
  senderId: SenderIdField,
  note: z.object({ text: NoteText }),
});

export const ConversationNotePublic = z
  .object({
    noteUid: z.string(),
    text: z.string(),
    author: z.object({
      type: z.enum(["member", "api_token", "automation"]),
      email: z.string().optional().describe("A member's email"),
      tokenName: z.string().optional().describe("An API token's name"),
      ruleName: z.string().optional().describe("The automation rule's name"),
    }),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "ConversationNote" });
export type PublicConversationNote = z.infer<typeof ConversationNotePublic>;

export const ConversationNotesPublic = z.object({
  conversationUid: z.string(),
  notes: z.array(ConversationNotePublic),
  items: z.array(ConversationNotePublic),
  pagination: PageBlockSchema,
});
