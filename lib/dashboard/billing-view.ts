// The billing explorer's view state lives in the URL: ?sender= (the layout's switcher) is
// the API's senderId; every other key is named as in GET /billing/messages (docs/api/billing.md), so a link reopens the view.

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { BillingExportQuery, BillingHistoryQuery, BillingMessagesQuery } from "@/lib/domains/billing/schemas";
import { resolveSender, type Sender } from "@/lib/domains/senders/service";

const withSender = (params: Record<string, string>) => {
  const { sender, record: _record, ...rest } = params;
  return { ...rest, ...(sender ? { senderId: sender } : {}) };
};

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = error.issues[0];
  return i ? `${i.path.map(String).join(".") || "filters"}: ${i.message}` : "Invalid filters";
}

export function parseMessagesView(params: Record<string, string>) {
  const parsed = BillingMessagesQuery.safeParse(withSender(params));
  if (parsed.success) return { query: parsed.data, error: null };
  return { query: BillingMessagesQuery.parse({ senderId: params.sender }), error: firstIssue(parsed.error) };
}

export function parseExportView(params: Record<string, string>) {
  return BillingExportQuery.parse(withSender(params));
}

export function parseHistoryView(params: Record<string, string>) {
  const parsed = BillingHistoryQuery.safeParse(withSender(params));
  if (parsed.success) return { query: parsed.data, error: null };
  return { query: BillingHistoryQuery.parse({}), error: firstIssue(parsed.error) };
}

/** The chosen sender, or undefined for the whole account (user-wide). */
export async function billingSender(p: Principal, phone: string | undefined): Promise<Sender | undefined> {
  if (!phone) return undefined;
  const sender = await resolveSender(p, phone, {
    useDefault: false,
    requireSetup: false,
    scopeError: "SENDER_NOT_ALLOWED",
  });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Sender not found");
  return sender;
}
