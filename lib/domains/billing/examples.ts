// The OpenAPI examples of the billing routes (docs/openapi.md "Adding a route"): one
// message billing record and one ledger entry through the serializers the routes answer with.
import { EXAMPLE_TIME, exampleTime } from "@/lib/core/examples";
import { pageBlock } from "@/lib/core/pagination";
import { sampleSender } from "@/lib/domains/senders/samples";
import {
  type BillingRecordRow,
  type BillingTransactionRow,
  toPublicBillingRecord,
  toPublicBillingTransaction,
} from "./serializers";

const recordRow: BillingRecordRow = {
  id: "cmwtr9e1a0021ug7dbilling1",
  messageId: "wamid.HBgLMTgyNDQ3NTI5NjYVAgARGBI1",
  phoneNumberId: sampleSender.phoneNumberId ?? "",
  senderPhoneNumber: sampleSender.phoneNumber,
  recipientId: "18244752966",
  status: "delivered",
  billable: true,
  billingClass: "payable",
  pricingModel: "PMP",
  pricingCategory: "utility",
  templateType: "utility",
  pricingType: "regular",
  rate: "0.004",
  conversationId: null,
  conversationOriginType: null,
  messageTimestamp: EXAMPLE_TIME,
  createdAt: EXAMPLE_TIME,
  updatedAt: exampleTime(5),
};

const debitRow: BillingTransactionRow = {
  id: "cmwtr9e2b0022ug7dledger01",
  type: "debit",
  amount: recordRow.rate,
  currency: "USD",
  description: "Template message (utility)",
  billingRecordId: recordRow.id,
  templateType: "utility",
  billingClass: "payable",
  pricingCategory: "utility",
  createdAt: exampleTime(5),
  senderPhoneNumber: sampleSender.phoneNumber,
  phoneNumberId: sampleSender.phoneNumberId,
};
const debit = toPublicBillingTransaction(debitRow);
const scoped = {
  senderId: sampleSender.phoneNumber,
  phoneNumberId: sampleSender.phoneNumberId,
  scope: "sender",
} as const;

export const getBillingMessages = {
  message: "Billing records retrieved",
  response: {
    senderId: null,
    phoneNumberId: null,
    scope: "user" as const,
    billingRecords: [toPublicBillingRecord(recordRow)],
    pagination: pageBlock(1, 50, 1, 1),
  },
};

const history = {
  ...scoped,
  transactions: [debit],
  summary: { credits: 0, debits: debit.amount, refunds: 0, adjustments: 0, balance: -debit.amount, currency: "USD" },
  pagination: pageBlock(1, 50, 1, 1),
};

export const getBillingHistory = {
  query: { senderId: sampleSender.phoneNumber },
  message: "Billing history retrieved",
  response: history,
};

export const getBillingHistoryBySenderId = {
  params: { senderId: encodeURIComponent(sampleSender.phoneNumber) },
  message: "Billing history retrieved",
  response: history,
};
