// Provider statuses of messages this service sent -> the billing records and ledger
// (lib/domains/billing/status-writes.ts), then one message.status.<status> event per status
// move, in the caller's transaction. Events are idempotent by dedupe key, so a replayed or
// concurrent callback emits nothing twice.

import type { Tx } from "@/lib/db";
import { type AppliedStatus, applyStatuses, type StatusItem } from "@/lib/domains/billing/status-writes";
import { applyRecipientStatuses, broadcastsOf } from "@/lib/domains/broadcasts/recipient-statuses";
import { type EventInput, emitEvents } from "@/lib/domains/events/emit";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";

export type { StatusItem };

/**
 * The statuses that are about messages this service sent from that sender: a Message with
 * that provider id, or a billing record already kept for it (records from before this rule,
 * the demo). Anything else is never applied, so never billed (docs/event-pipeline.md
 * "Statuses for messages we did not send").
 */
async function sentFromTheirSender(tx: Tx, items: StatusItem[]): Promise<Set<string>> {
  const pairs = [...new Map(items.map((i) => [`${i.sender.id}|${i.update.id}`, i])).values()];
  if (pairs.length === 0) return new Set();
  const rows = await tx.$queryRawUnsafe<{ key: string }[]>(
    `SELECT s.sender || '|' || s.id AS key FROM unnest($1::text[], $2::text[]) AS s(id, sender)
     WHERE EXISTS (SELECT 1 FROM "Message" m WHERE m."providerMessageId" = s.id AND m."senderId" = s.sender)
        OR EXISTS (SELECT 1 FROM "BillingRecord" b WHERE b."messageId" = s.id AND b."senderId" = s.sender)`,
    pairs.map((i) => i.update.id),
    pairs.map((i) => i.sender.id),
  );
  return new Set(rows.map((r) => r.key));
}

/**
 * Applies the statuses of one batch that are about messages this service sent; returns how
 * many events were emitted and the statuses left unapplied (message ids it does not know).
 */
export async function ingestStatuses(tx: Tx, items: StatusItem[]): Promise<{ events: number; unknown: StatusItem[] }> {
  const known = await sentFromTheirSender(tx, items);
  const ours = items.filter((i) => known.has(`${i.sender.id}|${i.update.id}`));
  const unknown = items.filter((i) => !known.has(`${i.sender.id}|${i.update.id}`));
  const applied = await applyStatuses(tx, ours);
  // A broadcast's messages: their recipients follow, and their events name the broadcast (docs/broadcasts.md).
  const broadcasts = await broadcastsOf(tx, [...new Set(applied.map((a) => a.row.messageId))]);
  if (broadcasts.size > 0) {
    await applyRecipientStatuses(
      tx,
      applied
        .filter((a) => broadcasts.has(a.row.messageId))
        .map((a) => ({
          providerMessageId: a.row.messageId,
          status: a.t.status,
          errorCode: a.t.update.errors?.[0]?.code ?? null,
        })),
    );
  }
  await publishStatuses(tx, applied);
  return {
    events: await emitEvents(
      tx,
      applied.map((a) => statusEvent(a, broadcasts.get(a.row.messageId))),
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

function statusEvent({ row, t }: AppliedStatus, broadcastUid?: string): EventInput {
  const u = t.update;
  return {
    sender: row.sender,
    type: `message.status.${t.status}`,
    dedupeKey: `status:${row.messageId}:${t.status}`,
    data: {
      messageId: row.messageId,
      billingUid: row.id,
      recipientId: row.recipientId,
      status: t.status,
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
  };
}
