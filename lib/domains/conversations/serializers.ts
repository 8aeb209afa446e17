// Public shapes of conversations and thread entries (docs/conversations.md "API"):
// every field is named here, so a new column never leaks.
import { type MessageMediaRow, toMessageMedia } from "@/lib/domains/media/serializers";
import type { ThreadMessageColumns } from "@/lib/domains/messages/reads";
import type { SlaTarget } from "@/lib/domains/sla/schemas";
import { contentOf, replyOf } from "./content";
import { ourInteractiveType, readProviderInteractive } from "./interactive-read";
import type { ReplyTo } from "./quotes";
import { shownReactions } from "./reactions";
import type {
  ConversationStatus,
  Direction,
  PublicConversation,
  PublicConversationMessage,
  PublicConversationNote,
  SentByKind,
} from "./schemas";

/** A row of conversationListSql / conversationByUidSql. */
export type ConversationRow = {
  id: string;
  customerId: string;
  senderId: string;
  contactPhoneNumber: string;
  contactName: string | null;
  status: ConversationStatus;
  unreadCount: number;
  lastMessageAt: Date;
  lastInboundAt: Date | null;
  windowExpiresAt: Date | null;
  lastMessagePreview: string;
  closedAt: Date | null;
  handoffAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  senderPhoneNumber: string;
  phoneNumberId: string | null;
  blacklisted: boolean;
  assigneeId: string | null;
  assigneeEmail: string | null;
  assigneeName: string | null;
  /** The current support period's figures (lib/domains/support/periods.ts); null until known. */
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
  /** Its SLA (lib/domains/sla/timers.ts): the policy, the pending due times, the current period's breached targets. */
  slaPolicyId: string | null;
  slaFirstResponseDueAt: Date | null;
  slaNextResponseDueAt: Date | null;
  slaResolutionDueAt: Date | null;
  slaBreaches: string[];
  /** The label names it carries, sorted by name. */
  labels: string[];
};

/** A row of threadSql. */
export type ThreadRow = {
  id: string;
  conversationId: string;
  direction: Direction;
  type: string;
  content: Record<string, unknown> | null;
  providerMessageId: string | null;
  messageId: string | null;
  sentBy: SentByKind;
  sentByLabel: string | null;
  replyTo: ReplyTo | null;
  /** Stored reactions (reactions.ts), removals included. */
  reactions: unknown;
  createdAt: Date;
} & ThreadMessageColumns &
  // The entry's file (lib/domains/media/reads.ts): all null when it has none.
  (MessageMediaRow | { [K in keyof MessageMediaRow]: null });

export function toPublicConversation(c: ConversationRow, now = Date.now()): PublicConversation {
  return {
    conversationUid: c.id,
    uid: c.id,
    senderId: c.senderPhoneNumber,
    phoneNumberId: c.phoneNumberId,
    contactPhoneNumber: c.contactPhoneNumber,
    contactName: c.contactName,
    status: c.status,
    unreadCount: c.unreadCount,
    lastMessageAt: c.lastMessageAt.toISOString(),
    lastInboundAt: c.lastInboundAt?.toISOString() ?? null,
    windowExpiresAt: c.windowExpiresAt?.toISOString() ?? null,
    windowOpen: c.windowExpiresAt !== null && c.windowExpiresAt.getTime() > now,
    lastMessagePreview: c.lastMessagePreview,
    blacklisted: c.blacklisted,
    assignee: c.assigneeEmail ? { email: c.assigneeEmail, name: c.assigneeName } : null,
    waitingForPerson: c.handoffAt !== null,
    handoffAt: c.handoffAt?.toISOString() ?? null,
    firstResponseSeconds: c.firstResponseSeconds,
    resolutionSeconds: c.resolutionSeconds,
    sla: c.slaPolicyId
      ? {
          policyUid: c.slaPolicyId,
          firstResponseDueAt: c.slaFirstResponseDueAt?.toISOString() ?? null,
          nextResponseDueAt: c.slaNextResponseDueAt?.toISOString() ?? null,
          resolutionDueAt: c.slaResolutionDueAt?.toISOString() ?? null,
          breaches: c.slaBreaches as SlaTarget[],
        }
      : null,
    labels: c.labels,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** Outbound: the message's status (queued ... read, failed) and error, kept on its row (lib/domains/messages). */
export function toPublicThreadMessage(e: ThreadRow): PublicConversationMessage {
  const outbound = e.direction === "outbound";
  const payload = e.outPayload ?? {};
  const type = outbound ? String(payload.type ?? e.type) : e.type;
  const content = outbound ? contentOf(type, payload) : (e.content ?? {});
  return {
    messageUid: e.id,
    conversationUid: e.conversationId,
    direction: e.direction,
    type,
    content,
    status: outbound ? (e.outStatus ?? "accepted") : e.direction === "system" ? "note" : "received",
    providerMessageId: outbound ? e.outProviderMessageId : e.providerMessageId,
    sentBy: e.sentBy,
    sentByLabel: e.sentByLabel,
    errorCode: outbound ? e.outErrorCode : null,
    errorMessage: outbound ? e.outErrorMessage : null,
    timestamp: e.createdAt.toISOString(),
    media: e.mediaId === null ? null : toMessageMedia(e, captionOf(content[type])),
    replyTo: e.replyTo
      ? {
          messageId: e.replyTo.messageId ?? null,
          providerMessageId: e.replyTo.providerMessageId ?? null,
          preview: e.replyTo.preview ?? null,
        }
      : null,
    reactions: shownReactions(e.reactions),
    interactive: outbound ? interactiveOf(payload) : null,
    reply: outbound ? null : replyOf(type, content),
  };
}

/** An outbound buttons, list or cta_url message in the shape the API takes it. */
function interactiveOf(payload: Record<string, unknown>) {
  const part = payload.type === "interactive" ? payload.interactive : undefined;
  if (typeof part !== "object" || part === null) return null;
  const type = ourInteractiveType((part as { type?: unknown }).type);
  return type ? { type, ...readProviderInteractive(type, part as Record<string, unknown>) } : null;
}

/** The caption sent with a media message (the type's object), if any. */
function captionOf(part: unknown): string | null {
  const caption = (part as { caption?: unknown } | null)?.caption;
  return typeof caption === "string" && caption !== "" ? caption : null;
}

/** A ConversationNote row. */
export type NoteRow = {
  id: string;
  text: string;
  authorType: string;
  authorEmail: string | null;
  authorTokenName: string | null;
  createdAt: Date;
};

export function toPublicNote(n: NoteRow): PublicConversationNote {
  const author: PublicConversationNote["author"] =
    n.authorType === "api_token"
      ? { type: "api_token", ...(n.authorTokenName ? { tokenName: n.authorTokenName } : {}) }
      : n.authorType === "automation"
        ? { type: "automation", ...(n.authorTokenName ? { ruleName: n.authorTokenName } : {}) }
        : { type: "member", ...(n.authorEmail ? { email: n.authorEmail } : {}) };
  return { noteUid: n.id, text: n.text, author, createdAt: n.createdAt.toISOString() };
}
