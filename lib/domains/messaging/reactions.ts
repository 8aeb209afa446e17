// Our reaction to a message of a conversation (docs/messaging.md "Reactions"): POST /chat and a
// conversation reply with `type: "reaction"`. The message is named by its messageUid and must
// be of the conversation with this contact on this sender (another one's is VALIDATION_FAILED);
// the provider refuses a reaction past 30 days (REACTION_TOO_OLD, checked here first). It goes
// through the send pipeline as a service message (not billed; the window does not apply), and
// once accepted it shows on the message it reacts to, not as a line of the thread.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { SentBy } from "@/lib/domains/conversations/outbound";
import { entryInConversation } from "@/lib/domains/conversations/quotes";
import { REACTION_MAX_AGE_MS, setReactionSql } from "@/lib/domains/conversations/reactions";
import { publishLive } from "@/lib/domains/live/publish";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";
import { sendMessage } from "./send";

export type ReactionInput = { messageId: string; emoji: string };

/** `field`: where the body holds the reaction, for the refusal (body.reaction, body.message.reaction). */
export async function sendReaction(
  p: Principal,
  sender: Sender,
  recipient: string,
  reaction: ReactionInput,
  field: string,
  sentBy?: SentBy,
): Promise<SendResult> {
  const target = await entryInConversation(p.customerId, sender.id, recipient, {
    messageUid: reaction.messageId,
  });
  if (!target?.providerMessageId) {
    const why = target
      ? "that message has not reached the provider (queued or failed): it cannot be reacted to"
      : "no message of this conversation has this messageUid";
    throw new ApiError("VALIDATION_FAILED", `reaction.messageId: ${why}`, {
      fields: [{ path: `${field}.messageId`, message: why }],
    });
  }
  if (Date.now() - target.createdAt.getTime() > REACTION_MAX_AGE_MS) {
    throw new ApiError("REACTION_TOO_OLD", "A reaction can be sent only to a message of the last 30 days", {
      messageId: target.messageId,
      sentAt: target.createdAt.toISOString(),
    });
  }
  const result = await sendMessage(p, sender, {
    sendRoute: "chat",
    recipient,
    payload: {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: recipient.replace(/^\+/, ""),
      type: "reaction",
      reaction: { message_id: target.providerMessageId, emoji: reaction.emoji },
    },
    sentBy,
  });
  if (result.message.status !== "failed") {
    const change = {
      entryId: target.messageId,
      customerId: p.customerId,
      by: "business" as const,
      emoji: reaction.emoji,
      at: result.message.createdAt,
    };
    await db.$transaction(async (tx) => {
      await tx.$executeRaw(setReactionSql(change));
      await publishLive(tx, p.customerId, [
        { kind: "conversation.changed", senderId: sender.id, conversationUid: target.conversationId },
      ]);
    });
  }
  return result;
}
