// A reply in a conversation is a send (the pipeline of send.ts): the window rule, the
// blacklist, the balance and the provider limits apply as on /chat. The conversation is read
// from its own domain (lib/domains/conversations), below this one.

import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { assignOnReply } from "@/lib/domains/conversations/assignment";
import type { SentBy } from "@/lib/domains/conversations/outbound";
import { getConversation } from "@/lib/domains/conversations/service";
import type { Sender } from "@/lib/domains/senders/service";
import type { SendResult } from "./outgoing";
import { chatPayload, templatePayload } from "./payloads";
import { quotedReply, withContext } from "./quoted-reply";
import { sendReaction } from "./reactions";
import type { ReplyMessageInput } from "./schemas";
import { sendMessage } from "./send";

export type ReplyResult = SendResult & { sender: Sender; conversationUid: string };

export async function replyToConversation(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  message: ReplyMessageInput,
  sentBy?: SentBy,
): Promise<ReplyResult> {
  const conversation = await getConversation(p, senderId, uid);
  const sender = await db.sender.findFirst({ where: { id: conversation.senderId, customerId: p.customerId } });
  if (!sender) throw new ApiError("CONVERSATION_NOT_FOUND", "Conversation not found for this account and sender");
  if (!sender.phoneNumberId) {
    throw new ApiError("WHATSAPP_SETUP_INCOMPLETE", `Sender ${sender.phoneNumber} has not finished WhatsApp setup`);
  }
  const to = conversation.contactPhoneNumber;
  const result =
    message.type === "reaction"
      ? await sendReaction(p, sender, to, message.reaction, "body.message.reaction", sentBy)
      : await sendReply(p, sender, to, message, sentBy);
  // A member's reply takes an unassigned conversation (docs/inbox.md "Assignment").
  if (conversation.assigneeId === null) await assignOnReply(p, conversation.id);
  return { ...result, sender, conversationUid: conversation.id };
}

/** A message of the reply (not a reaction), quoting `message.replyTo` when set. */
async function sendReply(
  p: Principal,
  sender: Sender,
  to: string,
  message: Exclude<ReplyMessageInput, { type: "reaction" }>,
  sentBy: SentBy | undefined,
): Promise<SendResult> {
  const replyTo = message.replyTo
    ? await quotedReply(p, sender, to, { messageUid: message.replyTo }, "body.message.replyTo")
    : undefined;
  if (message.type === "template") {
    return sendMessage(p, sender, {
      sendRoute: "send",
      recipient: to,
      payload: withContext(templatePayload({ to, template: message.template }), replyTo),
      template: { name: message.template.name, language: message.template.language },
      sentBy,
      replyTo,
    });
  }
  const payload =
    message.type === "text"
      ? chatPayload({ to, type: "text", text: message.text.body, previewUrl: message.text.previewUrl })
      : "interactive" in message
        ? chatPayload({ to, type: message.type, interactive: message.interactive })
        : // A file by its mediaId, as /chat sends it: the send's checks find it (media/send-media.ts).
          chatPayload({ to, type: message.type, media: message.media });
  return sendMessage(p, sender, {
    sendRoute: "chat",
    recipient: to,
    payload: withContext(payload, replyTo),
    sentBy,
    replyTo,
  });
}
