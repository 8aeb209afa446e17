// Provider statuses -> the billing records and ledger (lib/domains/billing/status-writes.ts), then
// one message.status.<status> event per status move, in the caller's transaction. Events
// are idempotent by dedupe key, so a replayed or concurrent callback emits nothing twice.

import type { Tx } from "@/lib/db";
import { type AppliedStatus, applyStatuses, type StatusItem } from "@/lib/domains/billing/status-writes";
import { type EventInput, emitEvents } from "../emit";

export type { StatusItem };

/** Applies all statuses of one batch; returns how many events were emitted. */
export async function ingestStatuses(tx: Tx, items: StatusItem[]): Promise<number> {
  return emitEvents(tx, (await applyStatuses(tx, items)).map(statusEvent));
}

function statusEvent({ row, t }: AppliedStatus): EventInput {
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
    },
  };
}
