// What a send path hands the send pipeline (send.ts) and what it gets back.
import { randomBytes } from "node:crypto";
import type { SentBy } from "@/lib/domains/conversations/outbound";
import type { ReplyTo } from "@/lib/domains/conversations/quotes";
import type { SendRoute } from "@/lib/domains/messages/send-routes";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { DirectSendCategory } from "@/lib/domains/templates/direct-send";
import type { Message, Template } from "@/lib/generated/prisma/client";

export type OutgoingMessage = {
  sendRoute: SendRoute;
  /** E.164 */
  recipient: string;
  /** The provider body (for Direct Send, the text message that becomes a template message). */
  payload: ProviderMessagePayload;
  /** Set for template sends: must exist and be APPROVED. */
  template?: { name: string; language: string };
  directSend?: { category: DirectSendCategory; ttlSeconds?: number; text: string };
  /** A caller-chosen local id (a chatbot reply derives it from its outbox row to notice a resend). */
  messageId?: string;
  /** The broadcast this send belongs to (docs/broadcasts.md): recorded on the message, named in its events. */
  broadcastId?: string;
  /** Shown in the conversation; default: dashboard for a session, else api. */
  sentBy?: SentBy;
  /** The message it quotes, resolved in its conversation (quoted-reply.ts); the payload carries its context. */
  replyTo?: ReplyTo;
};

/** An acceptance receipt, not a delivery receipt: the message as stored, queued or accepted. */
export type SendResult = { message: Message; queued: boolean; template: Template | null };

export const newMessageUid = () => `msg_${randomBytes(12).toString("hex")}`;
