// message.status.accepted: the provider sends no "accepted" status, the service knows when
// it accepted a send (docs/event-pipeline.md "Events"). Emitted once the accepted outcome
// is completed, by a direct send and by the reconnect queue's send alike, with the body of
// the other message.status.* events (lib/ingest/statuses.ts); a broadcast's batch
// emits its sends' events in one statement (emitAcceptedBatch). The send is already
// accepted: an event that cannot be written is logged, never the send's failure.

import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { type EventInput, emitEvent, emitEvents } from "@/lib/domains/events/emit";
import type { ProviderSender } from "@/lib/domains/provider/types";
import type { Message } from "@/lib/generated/prisma/client";

/** The message.status.accepted event of an accepted message (null for any other). */
function acceptedEvent(message: Message, sender: ProviderSender): EventInput | null {
  if (message.status !== "accepted" || !message.providerMessageId) return null;
  return {
    sender: {
      id: message.senderId,
      customerId: message.customerId,
      phoneNumber: sender.phoneNumber,
      phoneNumberId: sender.phoneNumberId || null,
    },
    type: "message.status.accepted",
    dedupeKey: `status:${message.providerMessageId}:accepted`,
    data: {
      messageId: message.providerMessageId,
      messageUid: message.id,
      billingUid: null,
      recipientId: message.recipient.replace(/^\+/, ""),
      status: "accepted",
      previousStatus: null,
      timestamp: message.updatedAt.toISOString(),
      pricing: null,
      conversation: null,
      errors: [],
      ...(message.broadcastId ? { broadcastUid: message.broadcastId } : {}),
      ...(message.mediaId ? { mediaId: message.mediaId } : {}),
    },
  };
}

export async function emitAccepted(message: Message, sender: ProviderSender): Promise<void> {
  const event = acceptedEvent(message, sender);
  if (!event) return;
  try {
    await emitEvent(db, event);
  } catch (error) {
    log.error({ err: error, messageUid: message.id }, "message.status.accepted not emitted");
  }
}

/**
 * The accepted events of a batch of sends in one statement (the broadcast dispatcher: one
 * round trip per batch instead of one per message); logged, never the sends' failure.
 */
export async function emitAcceptedBatch(items: { message: Message; sender: ProviderSender }[]): Promise<void> {
  const events = items.flatMap(({ message, sender }) => acceptedEvent(message, sender) ?? []);
  if (events.length === 0) return;
  try {
    await emitEvents(db, events);
  } catch (error) {
    log.error({ err: error, count: events.length }, "message.status.accepted not emitted for a batch");
  }
}
