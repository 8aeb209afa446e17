// The billing record's status only moves forward, by the message's own rule
// (lib/domains/messages/status.ts): accepted < sent < delivered < read; `failed` is terminal
// and is accepted only before delivery (a late failed is ignored). `played` (voice/video
// played) is read-level: it never changes the status and emits nothing. Unknown values
// are ignored. A late or repeated status never changes the status or emits an event, but
// facts it carries that are still missing (pricing, conversation, its own timestamp) are
// filled in, because the provider does not keep order and pricing may ride on any of them.

import { advances, STATUS_RANK } from "@/lib/domains/messages/status";
import type { ProviderStatusT } from "@/lib/domains/provider/callbacks/schemas";
import { type BillingClass, billingClassOf } from "./payable";
import { type PricingFields, pricingFields } from "./pricing";

export type RecordState = PricingFields & {
  status: string;
  billingClass: BillingClass;
  recipientId: string;
  conversationId: string | null;
  conversationOriginType: string | null;
  errorCode: number | null;
  errorTitle: string | null;
  messageTimestamp: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
};

export type Transition = { status: string; previousStatus: string | null; update: ProviderStatusT };

/** Sort key inside one batch: lifecycle order, failed last, then provider time. */
export function batchOrder(a: ProviderStatusT, b: ProviderStatusT): number {
  const rank = (s: string) => (s === "failed" ? 9 : (STATUS_RANK[s] ?? 8));
  return rank(a.status) - rank(b.status) || Number(a.timestamp) - Number(b.timestamp);
}

export function providerTime(update: ProviderStatusT): Date {
  const seconds = Number(update.timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

const TIMESTAMP_FIELD = { sent: "sentAt", delivered: "deliveredAt", read: "readAt", failed: "failedAt" } as const;

/** A fresh record state for a message first seen in this update. */
export function initialState(update: ProviderStatusT): RecordState {
  return {
    status: "pending",
    recipientId: update.recipient_id ?? "",
    billable: false,
    billingClass: "free",
    pricingModel: null,
    pricingCategory: null,
    templateType: null,
    pricingType: null,
    conversationId: null,
    conversationOriginType: null,
    errorCode: null,
    errorTitle: null,
    messageTimestamp: providerTime(update),
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
  };
}

/** Applies one provider status to the state in place; returns the transition when the status moved. */
export function applyStatus(state: RecordState, update: ProviderStatusT, isNew: boolean): Transition | null {
  const status = update.status.toLowerCase();
  if (update.pricing) {
    // Pricing on a forward status wins; on a late one it only fills what is missing.
    const moving = advances(isNew ? null : state.status, status);
    if (moving || state.pricingCategory === null) Object.assign(state, pricingFields(update.pricing));
  }
  if (update.conversation) {
    state.conversationId ??= update.conversation.id ?? null;
    state.conversationOriginType ??= update.conversation.origin?.type ?? null;
  }
  if (!state.recipientId && update.recipient_id) state.recipientId = update.recipient_id;
  const field = TIMESTAMP_FIELD[status as keyof typeof TIMESTAMP_FIELD];
  if (field && state[field] === null) state[field] = providerTime(update);
  if (!advances(isNew ? null : state.status, status)) return null;
  const previousStatus = isNew ? null : state.status;
  state.status = status;
  if (status === "failed") {
    const error = update.errors?.[0];
    state.errorCode = error?.code ?? null;
    state.errorTitle = error?.title ?? error?.message ?? null;
  }
  return { status, previousStatus, update };
}

/** Sets the billing class from the payable rule (lib/domains/billing/payable.ts). */
export function settleBillingClass(state: RecordState): void {
  state.billingClass = billingClassOf(state.billable, state.status, state.billingClass);
}
