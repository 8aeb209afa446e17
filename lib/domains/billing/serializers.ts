// Public shapes of billing records and ledger entries: every field the contract shows,
// named here, so no new column (error details, currency, internal ids) leaks by accident.
import type { BillingRecord } from "@/lib/generated/prisma/client";
import type { PublicBillingRecordT, PublicBillingTransactionT } from "./schemas";

type DecimalLike = { toString(): string } | number | string;
type DateLike = Date | string;

/** numeric(12,6) -> number (6 decimals fit a double exactly enough for money display). */
export const toNumber = (value: DecimalLike | null | undefined): number => (value == null ? 0 : Number(String(value)));
const iso = (value: DateLike): string => new Date(value).toISOString();

/** The record columns the public shape reads (raw SQL rows and Prisma rows alike). */
export type BillingRecordRow = Pick<
  BillingRecord,
  | "id"
  | "messageId"
  | "phoneNumberId"
  | "senderPhoneNumber"
  | "recipientId"
  | "status"
  | "billable"
  | "billingClass"
  | "pricingModel"
  | "pricingCategory"
  | "templateType"
  | "pricingType"
  | "conversationId"
  | "conversationOriginType"
> & { rate: DecimalLike; messageTimestamp: DateLike; createdAt: DateLike; updatedAt: DateLike };

/** docs/api/billing.md, exactly: ISO 8601 UTC timestamps, rate as a number. */
export function toPublicBillingRecord(row: BillingRecordRow): PublicBillingRecordT {
  return {
    billingUid: row.id,
    messageId: row.messageId,
    phoneNumberId: row.phoneNumberId,
    senderPhoneNumber: row.senderPhoneNumber,
    recipientId: row.recipientId,
    status: row.status,
    billable: row.billable,
    billingClass: row.billingClass,
    pricingModel: row.pricingModel,
    pricingCategory: row.pricingCategory,
    templateType: row.templateType,
    pricingType: row.pricingType,
    rate: toNumber(row.rate),
    conversationId: row.conversationId,
    conversationOriginType: row.conversationOriginType,
    messageTimestamp: iso(row.messageTimestamp),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A ledger row joined with its sender's numbers. */
export type BillingTransactionRow = {
  id: string;
  type: PublicBillingTransactionT["type"];
  amount: DecimalLike;
  currency: string;
  description: string | null;
  billingRecordId: string | null;
  templateType: string | null;
  billingClass: string | null;
  pricingCategory: string | null;
  createdAt: DateLike;
  senderPhoneNumber: string | null;
  phoneNumberId: string | null;
};

export function toPublicBillingTransaction(row: BillingTransactionRow): PublicBillingTransactionT {
  return {
    transactionUid: row.id,
    type: row.type,
    amount: toNumber(row.amount),
    currency: row.currency,
    description: row.description,
    senderId: row.senderPhoneNumber,
    phoneNumberId: row.phoneNumberId,
    billingUid: row.billingRecordId,
    templateType: row.templateType,
    billingClass: row.billingClass,
    pricingCategory: row.pricingCategory,
    createdAt: iso(row.createdAt),
  };
}
