// Quoted replies we send (docs/messaging.md "Quoted replies"): `replyTo` (a messageUid) on /chat
// and a conversation reply, the provider's `context.message_id` (a provider id) on the
// provider-shaped routes. The quoted message must be of the conversation with this contact
// on this sender, else VALIDATION_FAILED naming the field; it leaves as the provider's
// `context {message_id}` and the thread entry keeps `replyTo` as an inbound quote does.
import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { type EntryRef, entryInConversation, type ReplyTo } from "@/lib/domains/conversations/quotes";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { Sender } from "@/lib/domains/senders/service";

/** The quoted entry as the thread keeps it; `field` names where the body holds the reference. */
export async function quotedReply(
  p: Principal,
  sender: Sender,
  recipient: string,
  ref: EntryRef,
  field: string,
): Promise<ReplyTo> {
  const entry = await entryInConversation(p.customerId, sender.id, recipient, ref);
  if (!entry?.providerMessageId) {
    const why = entry
      ? "that message has not reached the provider (queued or failed): it cannot be quoted"
      : "no message of this conversation has this id";
    throw new ApiError("VALIDATION_FAILED", `${field.replace(/^body\./, "")}: ${why}`, {
      fields: [{ path: field, message: why }],
    });
  }
  return { messageId: entry.messageId, providerMessageId: entry.providerMessageId, preview: entry.preview };
}

/** The provider body quoting the entry (`context.message_id`). */
export const withContext = (payload: ProviderMessagePayload, replyTo: ReplyTo | undefined): ProviderMessagePayload =>
  replyTo?.providerMessageId ? { ...payload, context: { message_id: replyTo.providerMessageId } } : payload;
