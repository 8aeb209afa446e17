// message.status.accepted: the provider sends no "accepted" status, the service knows when
// it accepted a send (docs/event-pipeline.md "Events"). Emitted once the accepted outcome
// is completed, by a direct send and by the reconnect queue's send alike, with the body of
// the other message.status.* events (lib/domains/events/ingest/statuses.ts). The send is already
// accepted: an event that cannot be written is logged, never the send's failure.

import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { emitEvent } from "@/lib/domains/events/emit";
import type { ProviderSender } from "@/lib/domains/provider/types";
import type { Message } from "@/lib/generated/prisma/client";

export async function emitAccepted(message: Message, sender: ProviderSender): Promise<void> {
  if (message.status !== "accepted" || !message.providerMessageId) return;
  try {
    await emitEvent(db, {
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
      },
    });
  } catch (error) {
    log.error({ err: error, messageUid: message.id }, "message.status.accepted not emitted");
  }
}
