// Provider statuses of the senders' messages (sent by this service, or outside it from the same
// number: sendRoute "external") -> the billing records and ledger
// (lib/domains/billing/status-writes.ts), the messages' own status (lib/domains/messages/
// delivery.ts), their broadcast recipients, then one message.status.<status> event per status
// move, in the caller's transaction. Events are idempotent by dedupe key, so a replayed or
// concurrent callback emits nothing twice.

import type { Tx } from "@/lib/db";
import {
  type AdoptedRecord,
  type AppliedStatus,
  adoptSendRoutes,
  applyStatuses,
  recordSenders,
  type StatusItem,
} from "@/lib/domains/billing/status-writes";
import { recipientsFollowMessages } from "@/lib/domains/broadcasts/recipient-statuses";
import { type EventInput, emitEvents } from "@/lib/domains/events/emit";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { messageMediaRows } from "@/lib/domains/media/reads";
import type { MessageMediaT } from "@/lib/domains/media/schemas";
import { toMessageMedia } from "@/lib/domains/media/serializers";
import { applyDeliveryStatuses, type DeliveryMessage, messagesByProviderIds } from "@/lib/domains/messages/delivery";
import { isMessageEventStatus, MESSAGE_STATUS_EVENTS } from "@/lib/domains/messaging/event-types";

export type { StatusItem };

/**
 * Whom each status is about (docs/event-pipeline.md "Statuses for messages we did not send"): a
 * Message with that provider id is the message of its sender only (a status for another sender's
 * message is ignored); an id no Message holds was sent outside this service from the number the
 * status arrived for (sendRoute "external"), unless a billing record of another sender holds it.
 */
async function whoseStatuses(tx: Tx, items: StatusItem[]) {
  const ids = [...new Set(items.map((i) => i.update.id))];
  const messages = new Map((await messagesByProviderIds(tx, ids)).map((m) => [m.providerMessageId, m]));
  const records = await recordSenders(
    tx,
    ids.filter((id) => !messages.has(id)),
  );
  const ours: StatusItem[] = [];
  const external: StatusItem[] = [];
  const ignored: StatusItem[] = [];
  for (const item of items) {
    const message = messages.get(item.update.id);
    item.sendRoute = message?.sendRoute ?? "external";
    if (message) {
      (message.senderId === item.sender.id ? ours : ignored).push(item);
      continue;
    }
    const recordSender = records.get(item.update.id);
    (recordSender === undefined || recordSender === item.sender.id ? external : ignored).push(item);
  }
  return { messages, ours, external, ignored };
}

/**
 * Applies the statuses of one batch: those of messages this service sent, and those of messages
 * sent outside it from the same number (external: billed, evented, no message yet). Returns how many
 * events were emitted, the external statuses (ids no message holds yet) and the ignored ones
 * (another sender's messages).
 */
export async function ingestStatuses(
  tx: Tx,
  items: StatusItem[],
): Promise<{ events: number; external: StatusItem[]; ignored: StatusItem[] }> {
  const { messages, ours: own, external, ignored } = await whoseStatuses(tx, items);
  const ours = [...own, ...external];
  const applied = await applyStatuses(tx, ours);
  // A record kept as external before its send recorded the id (an early status) is the send's.
  const adopted = await adoptSendRoutes(
    tx,
    own.map((i) => i.update.id),
  );
  // Each message follows its record: where the batch left it (never back, lib/domains/messages/status.ts).
  const records = new Map<string, AdoptedRecord>(adopted.map((r) => [r.messageId, r]));
  for (const a of applied) records.set(a.row.messageId, a.row);
  await applyDeliveryStatuses(
    tx,
    [...records.values()].map((r) => ({
      providerMessageId: r.messageId,
      status: r.status,
      errorCode: r.errorCode,
      errorTitle: r.errorTitle,
    })),
  );
  // A broadcast's messages: their recipients follow them (every one the batch is about: a status
  // applied before, a duplicate, an early one its send adopted), and their events name the broadcast.
  await recipientsFollowMessages(
    tx,
    own.flatMap((i) => {
      const m = messages.get(i.update.id);
      return m?.broadcastId ? [m.id] : [];
    }),
  );
  await publishStatuses(tx, applied);
  const files = await mediaOf(tx, messages, applied);
  return {
    events: await emitEvents(
      tx,
      applied.flatMap((a) => {
        const m = messages.get(a.row.messageId);
        return statusEvent(a, m?.broadcastId ?? undefined, files.get(a.row.messageId));
      }),
    ),
    external,
    ignored,
  };
}
/** The threads' ticks move live on the open dashboards when this commits (docs/inbox.md "Live updates"). */
async function publishStatuses(tx: Tx, applied: AppliedStatus[]) {
  const byCustomer = new Map<string, LiveEvent[]>();
  for (const { row, t } of applied) {
    const events = byCustomer.get(row.sender.customerId) ?? [];
    events.push({ kind: "message.status", senderId: row.sender.id, messageId: row.messageId, status: t.status });
    byCustomer.set(row.sender.customerId, events);
  }
  for (const [customerId, events] of byCustomer) await publishLive(tx, customerId, events);
}

/**
 * The file each media send of the batch sent by mediaId (docs/media.md "Sending media"): its facts as
 * they are now (a file deleted since shows unavailable), by provider message id.
 */
async function mediaOf(
  tx: Tx,
  messages: Map<string, DeliveryMessage>,
  applied: AppliedStatus[],
): Promise<Map<string, MessageMediaT>> {
  const sends = applied.flatMap((a) => {
    const m = messages.get(a.row.messageId);
    return m?.mediaId ? [{ ...m, mediaId: m.mediaId }] : [];
  });
  const rows = await messageMediaRows(tx, sends);
  const files = new Map<string, MessageMediaT>();
  for (const m of sends) {
    const row = rows.get(m.mediaId);
    if (row) files.set(m.providerMessageId, toMessageMedia(row, m.mediaCaption));
  }
  return files;
}

function statusEvent({ row, t }: AppliedStatus, broadcastUid?: string, media?: MessageMediaT): EventInput[] {
  const u = t.update;
  const status = t.status;
  // The status machine moves only to statuses that have their event (docs/event-pipeline.md).
  if (!isMessageEventStatus(status)) return [];
  const event = MESSAGE_STATUS_EVENTS[status].of({
    sender: row.sender,
    dedupeKey: `status:${row.messageId}:${t.status}`,
    data: {
      messageId: row.messageId,
      billingUid: row.id,
      recipientId: row.recipientId,
      status,
      previousStatus: t.previousStatus,
      timestamp: new Date(Number(u.timestamp) * 1000).toISOString(),
      pricing: u.pricing
        ? {
            billable: row.billable,
            billingClass: row.billingClass,
            pricingModel: row.pricingModel,
            pricingCategory: row.pricingCategory,
            templateType: row.templateType,
            pricingType: row.pricingType,
            rate: Number(row.rate),
          }
        : null,
      conversation: u.conversation
        ? { id: u.conversation.id ?? null, originType: u.conversation.origin?.type ?? null }
        : null,
      errors: (u.errors ?? []).map((e) => ({
        code: e.code ?? null,
        title: e.title ?? null,
        message: e.message ?? null,
      })),
      ...(broadcastUid ? { broadcastUid } : {}),
      ...(media ? { mediaId: media.mediaId, media } : {}),
    },
  });
  return [event];
}
