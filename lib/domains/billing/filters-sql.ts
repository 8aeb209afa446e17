// The SQL of the billing record filters and sorts (docs/api/billing.md), built once with Prisma.sql
// so that the list, totals, chart and CSV export share it and the index-proof test can
// EXPLAIN exactly what the services run. Every clause starts with the customer.

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  type BillingFiltersInput,
  type BillingSortField,
  PUBLIC_BILLING_RECORD_FIELDS,
  type SortOrder,
} from "./schemas";

/** sortBy -> column. Each has an index (customerId, column, id); see prisma/schema.prisma. */
export const SORT_COLUMNS: Record<BillingSortField, string> = {
  created_at: "createdAt",
  message_timestamp: "messageTimestamp",
  pricing_category: "pricingCategory",
  status: "status",
  rate: "rate",
};

/** The columns the public record reads (docs/api/billing.md; its uid is the id): fewer columns, less to decode per row. */
const RECORD_COLUMNS = PUBLIC_BILLING_RECORD_FIELDS.map((f) => (f === "billingUid" ? "id" : f));

export const recordColumns = (alias = "b"): Prisma.Sql =>
  Prisma.raw(RECORD_COLUMNS.map((c) => `${alias}."${c}"`).join(", "));

/** The day after YYYY-MM-DD, so that dateTo includes its whole (UTC) day. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The stored recipient may carry a "+" or not (the provider's recipient_id has none). */
export function recipientVariants(raw: string): string[] {
  const digits = raw.replace(/[\s()+-]/g, "");
  return [...new Set([raw.trim(), digits, `+${digits}`])];
}

/** A number-scoped principal reads only its own sender (never user-wide). */
export function assertSenderInScope(p: Principal, sender: Pick<Sender, "id"> | undefined) {
  if (p.scopedSenderId && sender?.id !== p.scopedSenderId) {
    throw new ApiError("SENDER_NOT_ALLOWED", "This token is bound to another sender");
  }
}

/**
 * A number-scoped token may filter only by its own phoneNumberId (SENDER_NOT_ALLOWED
 * otherwise); a global token may combine any senderId and phoneNumberId (no match: empty).
 */
export function assertPhoneNumberIdAllowed(p: Principal, sender: Sender | undefined, phoneNumberId?: string) {
  if (!phoneNumberId || !p.scopedSenderId) return;
  if (sender?.phoneNumberId !== phoneNumberId) {
    throw new ApiError("SENDER_NOT_ALLOWED", "This token is bound to another sender", {
      allowedPhoneNumberId: sender?.phoneNumberId ?? null,
    });
  }
}

type Filters = Omit<BillingFiltersInput, "senderId">;

/** WHERE of the billing records of one customer (and sender), with the filters of 4.1. */
export function billingWhere(
  customerId: string,
  sender: Pick<Sender, "id"> | undefined,
  f: Filters,
  alias = "b",
): Prisma.Sql {
  const col = (name: string) => Prisma.raw(`${alias}."${name}"`);
  const parts: Prisma.Sql[] = [Prisma.sql`${col("customerId")} = ${customerId}`];
  if (sender) parts.push(Prisma.sql`${col("senderId")} = ${sender.id}`);
  if (f.phoneNumberId) parts.push(Prisma.sql`${col("phoneNumberId")} = ${f.phoneNumberId}`);
  // createdAt is timestamp(3) holding UTC: whole days [dateFrom 00:00, dateTo + 1 day).
  if (f.dateFrom) parts.push(Prisma.sql`${col("createdAt")} >= ${f.dateFrom}::timestamp`);
  if (f.dateTo) parts.push(Prisma.sql`${col("createdAt")} < ${nextDay(f.dateTo)}::timestamp`);
  if (f.status) parts.push(Prisma.sql`${col("status")} = ${f.status}`);
  if (f.templateType) parts.push(Prisma.sql`${col("templateType")} = ${f.templateType}`);
  if (f.billable === "true" || f.billable === "false")
    parts.push(Prisma.sql`${col("billable")} = ${f.billable === "true"}`);
  if (f.billable === "payable" || f.billable === "free") parts.push(Prisma.sql`${col("billingClass")} = ${f.billable}`);
  if (f.pricingType) parts.push(Prisma.sql`${col("pricingType")} = ${f.pricingType}`);
  if (f.messageId) parts.push(Prisma.sql`${col("messageId")} = ${f.messageId}`);
  if (f.recipient) parts.push(Prisma.sql`${col("recipientId")} IN (${Prisma.join(recipientVariants(f.recipient))})`);
  if (f.conversationId) parts.push(Prisma.sql`${col("conversationId")} = ${f.conversationId}`);
  if (f.sendRoute) parts.push(Prisma.sql`${col("sendRoute")} = ${f.sendRoute}`);
  return Prisma.join(parts, " AND ");
}

/**
 * ORDER BY the sort column then id, both in the requested direction: one ascending
 * index serves both directions. NULLs (pricingCategory) sort last ascending, first
 * descending (PostgreSQL's default, which is also the index order).
 */
export function billingOrder(sortBy: BillingSortField, sortOrder: SortOrder, alias = "b"): Prisma.Sql {
  const dir = sortOrder === "ASC" ? "ASC" : "DESC";
  return Prisma.raw(`${alias}."${SORT_COLUMNS[sortBy]}" ${dir}, ${alias}."id" ${dir}`);
}
