// A message's statuses (docs/messaging.md "Message statuses"): the one list, in the order a
// message moves through them, and the rule of that order. The Message row keeps its status
// (lib/domains/messages/delivery.ts), the billing record of a message the provider accepted keeps
// the same one (lib/domains/billing/status-machine.ts), a broadcast's recipient follows it.

/**
 * queued: waits for its sender to reconnect; sending: written, its provider call not answered
 * yet; accepted: the provider took it; sent, delivered, read: as the provider reported; failed:
 * refused at the send (no provider id) or failed afterwards (the provider's failed status);
 * unknown: the send was interrupted and whether the provider has it is not known.
 */
export const MESSAGE_STATUSES = [
  "queued",
  "sending",
  "accepted",
  "sent",
  "delivered",
  "read",
  "failed",
  "unknown",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The statuses of a message the provider accepted: its message.status.<status> events and billing record. */
export const PROVIDER_STATUSES = [
  "accepted",
  "sent",
  "delivered",
  "read",
  "failed",
] as const satisfies readonly MessageStatus[];

/**
 * The forward order: a status replaces only a lower one. `pending` is a billing record's before
 * its first status. failed is terminal and replaces only what is below delivered (a message that
 * reached the handset cannot fail afterwards). Anything else (played, an unknown value) never moves.
 */
const RANKS: Record<string, number> = {
  pending: 0,
  queued: 0,
  sending: 0,
  accepted: 1,
  sent: 2,
  delivered: 3,
  read: 4,
};
export const STATUS_RANK: Readonly<Record<string, number>> = RANKS;

/** Whether `next` may replace `current` (null: nothing recorded yet). */
export function advances(current: string | null, next: string): boolean {
  if (next === "failed") {
    return current === null || (current !== "failed" && (RANKS[current] ?? 0) < (RANKS.delivered ?? 3));
  }
  const rank = RANKS[next];
  if (rank === undefined) return false;
  if (current === null) return true;
  if (current === "failed") return false;
  return rank > (RANKS[current] ?? 0);
}

const rankSql = (expr: string, otherwise: string) =>
  `CASE ${expr} ${Object.entries(RANKS)
    .map(([status, rank]) => `WHEN '${status}' THEN ${rank}`)
    .join(" ")} ELSE ${otherwise} END`;

/** advances() as a SQL condition over two text expressions (statements that move many rows at once). */
export function advancesSql(current: string, next: string): string {
  return `(CASE WHEN ${next} = 'failed' THEN ${current} <> 'failed' AND ${rankSql(current, "0")} < ${RANKS.delivered}
    WHEN ${current} = 'failed' THEN false
    ELSE COALESCE(${rankSql(next, "NULL")} > ${rankSql(current, "0")}, false) END)`;
}

/**
 * The provider took the message (or it waits in the reconnect queue to be sent): everything but a
 * refusal at the send, an interrupted send and one still in its provider call. A message that
 * failed after the provider accepted it counts: it was sent (docs/messaging.md "Message statuses").
 */
export function wentOut(m: { status: string; providerMessageId: string | null }): boolean {
  if (m.status === "failed") return m.providerMessageId !== null;
  return m.status !== "sending" && m.status !== "unknown";
}

/** A refusal at the send: nothing reached the provider (a failed status afterwards has a provider id). */
export const refusedAtSend = (m: { status: string; providerMessageId: string | null }): boolean =>
  m.status === "failed" && m.providerMessageId === null;
