// Provider statuses of messages this service sent -> the billing records and ledger
// (lib/domains/billing/status-writes.ts), the messages' own status (lib/domains/messages/
// delivery.ts), their broadcast recipients, then one message.status.<status> event per status
// move, in the caller's transaction. Events are idempotent by dedupe key, so a replayed or
// concurrent callback emits nothing twice.

import type { Tx } from "@/lib/db";
import { type AppliedStatus, applyStatuses, recordSenders, type StatusItem } from "@/lib/domains/billing/status-writes";
import { applyRecipientStatuses } from "@/lib/domains/broadcasts/recipient-statuses";
import { type EventInput, emitEvents } from "@/lib/domains/events/emit";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { applyDeliveryStatuses, type DeliveryMessage, messagesByProviderIds } from "@/lib/domains/messages/delivery";
import { isMessageEventStatus, MESSAGE_STATUS_EVENTS } from "@/lib/domains/messaging/event-types";

export type { StatusItem };

/**
 * The statuses that are about messages this service sent from that sender: a Message with
 * that provider id, or a billing record already kept for it (records from before this rule,
 * the demo). Anything else is never applied, so never billed (docs/event-pipeline.md
 * "Statuses for messages we did not send").
 */
async function sentFromTheirSender(tx: Tx, items: StatusItem[]) {
  const ids = [...new Set(items.map((i) => i.update.id))];
  const messages = new Map((await messagesByProviderIds(tx, ids)).map((m) => [m.providerMessageId, m]));
  const records = await recordSenders(
    tx,
    ids.filter((id) => !messages.has(id)),
  );
  const isOurs = (i: StatusItem) => (messages.get(i.update.id)?.senderId ?? records.get(i.update.id)) === i.sender.id;
  return { messages, isOurs };
}

/**
 * Applies the statuses of one batch that are about messages this service sent; returns how
 * many events were emitted and the statuses left unapplied (message ids it does not know).
 */
export async function ingestStatuses(tx: Tx, items: StatusItem[]): Promise<{ events: number; unknown: StatusItem[] }> {
  const { messages, isOurs } = await sentFromTheirSender(tx, items);
  const ours = items.filter(isOurs);
  const unknown = items.filter((i) => !isOurs(i));
  const applied = await applyStatuses(tx, ours);
  // Each message follows its record: where the batch left it (never back, lib/domains/messages/status.ts).
  const records = new Map(applied.map((a) => [a.row.messageId, a.row]));
  await applyDeliveryStatuses(
    tx,
    [...records.values()].map((r) => ({
      providerMessageId: r.messageId,
      status: r.status,
      errorCode: r.errorCode,
      errorTitle: r.errorTitle,
    })),
  );
  // A broadcast's messages: their recipients follow, and their events name the broadcast (docs/broadcasts.md).
  const broadcastOf = (a: AppliedStatus): DeliveryMessage | undefined => {
    const m = messages.get(a.row.messageId);
    return m?.broadcastId ? m : undefined;
  };
  await applyRecipientStatuses(
    tx,
    applied.flatMap((a) => {
      const m = broadcastOf(a);
      return m
        ? [
            {
              messageUid: m.id,
              providerMessageId: m.providerMessageId,
              status: a.t.status,
              errorCode: a.t.update.errors?.[0]?.code ?? null,
            },
          ]
        : [];
    }),
  );
  await publishStatuses(tx, applied);
  return {
    events: await emitEvents(
      tx,
      applied.flatMap((a) => statusEvent(a, broadcastOf(a)?.broadcastId ?? undefined)),
    ),
    unknown,
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

function statusEvent({ row, t }: AppliedStatus, broadcastUid?: string): EventInput[] {
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
    },
  });
  return [event];
}
