// What the reports share: a report's input as the message store's filter (lib/domains/messages/
// report-sql.ts: the customer scope first, the sender, the date range) and the scope block of
// their answers.

import type { Version } from "@/lib/core/version";
import type { Principal } from "@/lib/domains/auth/principal";
import type { MessageFilter } from "@/lib/domains/messages/report-sql";
import type { Sender } from "@/lib/domains/senders/service";

export type ScopeInput = { dateFrom?: string; dateTo?: string };

export function scopeFilter(p: Principal, sender: Sender | undefined, q: ScopeInput): MessageFilter {
  return { customerId: p.customerId, senderId: sender?.id, dateFrom: q.dateFrom, dateTo: q.dateTo };
}

/** v3-only filters are ignored on v2 (v2 keeps its contract). */
export const v3Only = <T>(version: Version, value: T | undefined): T | undefined =>
  version === "v3" ? value : undefined;

export const scopeBlock = (sender: Sender | undefined) => ({
  senderId: sender?.phoneNumber ?? null,
  phoneNumberId: sender?.phoneNumberId ?? null,
  scope: sender ? ("sender" as const) : ("user" as const),
});
