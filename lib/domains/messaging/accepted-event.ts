// message.status.accepted: the provider sends no "accepted" status, the service knows when
// it accepted a send (docs/event-pipeline.md "Events"). Emitted once the accepted outcome
// is completed, by a direct send and by the reconnect queue's send alike, with the body of
// the other message.status.* events (lib/ingest/statuses.ts); a broadcast's batch
// emits its sends' events in one statement (emitAcceptedBatch). The send is already
// accepted: an event that cannot be written is logged, never the send's failure.

import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { type EventInput, emitEvent, emitEvents } from "@/lib/domains/events/emit";
import { messageMediaRows } from "@/lib/domains/media/reads";
import type { MessageMediaT } from "@/lib/domains/media/schemas";
import { toMessageMedia } from "@/lib/domains/media/serializers";
import type { ProviderSender } from "@/lib/domains/provider/types";
import type { Message } from "@/lib/generated/prisma/client";

/** The message.status.accepted event of an accepted message (null for any other). */
function acceptedEvent(message: Message, sender: ProviderSender, media?: MessageMediaT): EventInput | null {
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
      ...(media ? { media } : {}),
    },
  };
}

/** The files the messages sent by mediaId, with a media message's caption (docs/media.md "Sending media"). */
async function filesOf(messages: Message[]): Promise<Map<string, MessageMediaT>> {
  const sends = messages.flatMap((m) =>
    m.mediaId ? [{ message: m, mediaId: m.mediaId, customerId: m.customerId }] : [],
  );
  const rows = await messageMediaRows(db, sends);
  const files = new Map<string, MessageMediaT>();
  for (const { message, mediaId } of sends) {
    const row = rows.get(mediaId);
    const part = (message.payload as Record<string, { caption?: unknown } | undefined> | null)?.[message.type];
    const caption = typeof part?.caption === "string" ? part.caption : null;
    if (row) files.set(message.id, toMessageMedia(row, caption));
  }
  return files;
}

export async function emitAccepted(message: Message, sender: ProviderSender): Promise<void> {
  if (!acceptedEvent(message, sender)) return;
  try {
    const event = acceptedEvent(message, sender, (await filesOf([message])).get(message.id));
    if (event) await emitEvent(db, event);
  } catch (error) {
    log.error({ err: error, messageUid: message.id }, "message.status.accepted not emitted");
  }
}

/**
 * The accepted events of a batch of sends in one statement (the broadcast dispatcher: one
 * round trip per batch instead of one per message); logged, never the sends' failure.
 */
export async function emitAcceptedBatch(items: { message: Message; sender: ProviderSender }[]): Promise<void> {
  if (items.every(({ message, sender }) => !acceptedEvent(message, sender))) return;
  try {
    const files = await filesOf(items.map((i) => i.message));
    const events = items.flatMap(({ message, sender }) => acceptedEvent(message, sender, files.get(message.id)) ?? []);
    await emitEvents(db, events);
  } catch (error) {
    log.error({ err: error, count: items.length }, "message.status.accepted not emitted for a batch");
  }
}
