// Billing (v3 only, docs/api/billing.md): message billing records and the money ledger.
// A number-scoped token reads only its own sender (SENDER_NOT_ALLOWED otherwise); a
// global token without senderId reads the whole account (scope "user").
import { PathText } from "@/lib/core/path-params";
import * as examples from "@/lib/domains/billing/examples";
import { listBillingHistory } from "@/lib/domains/billing/history";
import { listBillingRecords } from "@/lib/domains/billing/messages";
import {
  BillingHistoryData,
  BillingHistoryQuery,
  BillingMessagesData,
  BillingMessagesQuery,
} from "@/lib/domains/billing/schemas";
import { resolveSender } from "@/lib/domains/senders/service";
import { type AnyRoute, ok, route } from "../route-definition";

const senderOptions = { scopeError: "SENDER_NOT_ALLOWED", useDefault: false, requireSetup: false } as const;

const common = {
  method: "GET",
  versions: ["v3"],
  limit: "global",
  feature: "billing",
  tag: "Billing",
} as const;

export const billingRoutes: AnyRoute[] = [
  route({
    ...common,
    path: "/billing/messages",
    permission: "billing",
    example: examples.getBillingMessages,
    summary: "List message billing records",
    description: "One sender's records, or all the account's senders' records.",
    sender: "resolve",
    senderOptions,
    query: BillingMessagesQuery,
    response: BillingMessagesData,
    handler: async ({ principal, sender, query }) =>
      ok("Billing records retrieved", await listBillingRecords(principal, sender, query)),
  }),
  route({
    ...common,
    path: "/billing/history",
    permission: "billing",
    example: examples.getBillingHistory,
    summary: "Read the billing history",
    description: "The ledger of debits, credits, refunds and adjustments.",
    sender: "resolve",
    senderOptions,
    query: BillingHistoryQuery,
    response: BillingHistoryData,
    handler: async ({ principal, sender, query }) =>
      ok("Billing history retrieved", await listBillingHistory(principal, sender, query)),
  }),
  route({
    ...common,
    path: "/billing/history/:senderId",
    permission: "billing",
    example: examples.getBillingHistoryBySenderId,
    // The sender's phone number, resolved by the handler (as resolveSender reads it).
    params: { senderId: PathText },
    paramNotFound: { senderId: "SENDER_NOT_FOUND" },
    errors: ["SENDER_NOT_ALLOWED"],
    summary: "Read a sender's billing history",
    description: "The path senderId is the sender's phone number.",
    query: BillingHistoryQuery,
    response: BillingHistoryData,
    handler: async ({ principal, params, query }) => {
      // The router resolves senderId from the query or body only: the path's is resolved here.
      const sender = await resolveSender(principal, params.senderId, senderOptions);
      const data = await listBillingHistory(principal, sender, query);
      const headers: Record<string, string> = sender?.phoneNumberId
        ? { "X-Service-Phone-Number-Id": sender.phoneNumberId }
        : {};
      return { ...ok("Billing history retrieved", data), headers };
    },
  }),
];
