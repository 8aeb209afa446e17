// The customer service window (docs/conversations.md "The window rule"): it opens or
// refreshes at each inbound message and lasts 24 hours. Inside it any message may be sent;
// outside it only templates, orders and v3 Direct Send. The send pipeline's window step asks
// here (windowRefusals); the rule is the provider's (lib/domains/provider/service-window.ts),
// which the simulator applies on the provider's side.
import { ApiError } from "@/lib/core/errors";
import { hotRows } from "@/lib/db";
import { isFreeFormPayload, WINDOW_MS, type WindowPayload } from "@/lib/domains/provider/service-window";
import { Prisma } from "@/lib/generated/prisma/client";

export type WindowState = { lastInboundAt: Date | null; windowExpiresAt: Date | null; windowOpen: boolean };

export function windowState(lastInboundAt: Date | null, now = Date.now()): WindowState {
  const windowExpiresAt = lastInboundAt ? new Date(lastInboundAt.getTime() + WINDOW_MS) : null;
  return { lastInboundAt, windowExpiresAt, windowOpen: windowExpiresAt !== null && windowExpiresAt.getTime() > now };
}

/**
 * Free-form = anything but a template, an order message or a Direct Send (which goes out
 * as a template). Orders ride on the provider's order-details template, so they pass.
 */
export function isFreeForm(payload: WindowPayload, directSend?: unknown): boolean {
  return !directSend && isFreeFormPayload(payload);
}

export function windowClosedError(state: Pick<WindowState, "lastInboundAt" | "windowExpiresAt">): ApiError {
  const never = state.lastInboundAt === null;
  return new ApiError(
    "CUSTOMER_SERVICE_WINDOW_CLOSED",
    never
      ? "This contact has never written to this sender: free-form messages need an open customer service window; send a template instead"
      : "The customer service window with this contact has closed (24 hours after their last message); send a template instead",
    {
      windowExpiresAt: state.windowExpiresAt?.toISOString() ?? null,
      lastInboundAt: state.lastInboundAt?.toISOString() ?? null,
    },
  );
}

/** The contacts' last inbound times with this sender (absent: never wrote). One indexed read. */
async function lastInboundTimes(customerId: string, senderId: string, contacts: string[]): Promise<Map<string, Date>> {
  const rows = await hotRows<{ contactPhoneNumber: string; lastInboundAt: Date | null }>(
    Prisma.sql`SELECT "contactPhoneNumber", "lastInboundAt" FROM "Conversation"
      WHERE "senderId" = ${senderId} AND "contactPhoneNumber" = ANY(${contacts}::text[]) AND "customerId" = ${customerId}`,
  );
  const times = new Map<string, Date>();
  for (const r of rows) if (r.lastInboundAt) times.set(r.contactPhoneNumber, r.lastInboundAt);
  return times;
}

/** What the window step reads of a send. */
export type WindowedSend = { recipient: string; payload: WindowPayload; directSend?: unknown };

/**
 * The window step of the send pipeline (docs/messaging.md "The send pipeline"): per send, the
 * refusal it gets for the window, or undefined when it may go. Templates, orders and Direct
 * Send never ask the database; the free-form sends of a batch are one read together.
 */
export async function windowRefusals(
  customerId: string,
  senderId: string,
  sends: readonly WindowedSend[],
): Promise<(ApiError | undefined)[]> {
  const freeForm = sends.map((s) => isFreeForm(s.payload, s.directSend));
  const contacts = [...new Set(sends.filter((_, i) => freeForm[i]).map((s) => s.recipient))];
  if (contacts.length === 0) return sends.map(() => undefined);
  const times = await lastInboundTimes(customerId, senderId, contacts);
  const now = Date.now();
  return sends.map((s, i) => {
    if (!freeForm[i]) return undefined;
    const state = windowState(times.get(s.recipient) ?? null, now);
    return state.windowOpen ? undefined : windowClosedError(state);
  });
}
