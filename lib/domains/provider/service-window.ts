// The provider's customer service window (docs/conversations.md "The window rule"): it opens or
// refreshes at each message the contact sends and lasts 24 hours. Inside it any message may go
// out; outside it only templates (an order message rides on the provider's order-details
// template). The provider accepts a free-form message outside the window and then fails it with
// 131047. The send path applies the same rule first (lib/domains/conversations/window.ts); the
// simulator applies it as the provider does.

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** The provider body's shape as far as the rule cares. */
export type WindowPayload = { type: string; interactive?: unknown };

const ORDER_TYPES = new Set(["order_details", "order_status"]);

/**
 * Free-form = anything but a template, an order message or a reaction (a reaction has the
 * provider's own rule instead: at most 30 days after the message it reacts to).
 */
export function isFreeFormPayload(payload: WindowPayload): boolean {
  if (payload.type === "template" || payload.type === "reaction") return false;
  if (payload.type === "interactive") {
    const kind = (payload.interactive as { type?: unknown } | undefined)?.type;
    if (typeof kind === "string" && ORDER_TYPES.has(kind)) return false;
  }
  return true;
}
