// The billing explorer's view state lives in the URL: ?sender= (the layout's switcher) is
// the API's senderId; every other key is named as in GET /billing/messages (docs/api/billing.md), so a link reopens the view.

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import {
  type BillingHistoryInput,
  BillingHistoryQuery,
  type BillingMessagesInput,
  BillingViewExportQuery,
  BillingViewQuery,
} from "@/lib/domains/billing/schemas";
import { resolveSender, type Sender } from "@/lib/domains/senders/service";

const withSender = (params: Record<string, string>) => {
  const { sender, record: _record, ...rest } = params;
  return { ...rest, ...(sender ? { senderId: sender } : {}) };
};

/** A view whose filters cannot be applied: the field (its query name) and why. The page shows it and no rows. */
export type ViewRefusal = { field: string; message: string };

type View<T> = { query: T; refusal: null } | { query: null; refusal: ViewRefusal };

function viewOf<T>(
  parsed:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): View<T> {
  if (parsed.success) return { query: parsed.data, refusal: null };
  const issue = parsed.error.issues[0];
  return {
    query: null,
    refusal: { field: String(issue?.path[0] ?? "filters"), message: issue?.message ?? "Invalid filters" },
  };
}

/**
 * The billing explorer's view. Status and pricing type are the dashboard's closed lists, any
 * case (BillingViewQuery); a value the view cannot apply ("bogus") is refused, never dropped
 * for the unfiltered view while the form still shows the other filters.
 */
export function parseMessagesView(params: Record<string, string>): View<BillingMessagesInput> {
  return viewOf(BillingViewQuery.safeParse(withSender(params)));
}

/** The CSV export of the same view: a refused filter is a 400 naming it (the page never links to one). */
export function parseExportView(params: Record<string, string>) {
  return BillingViewExportQuery.parse(withSender(params));
}

export function parseHistoryView(params: Record<string, string>): View<BillingHistoryInput> {
  return viewOf(BillingHistoryQuery.safeParse(withSender(params)));
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
