// GET /api/v3/billing/history[/{senderId}] (docs/api/billing.md "The ledger"): the money ledger
// of the customer (or of one sender), filtered, newest first, with a summary of the
// filtered set. The balance follows the ledger's one rule (ledger.ts), over the same
// filtered set as the listed transactions (so "balance" of a date range is the net
// movement of that range).

import { type PageBlock, pageBlock } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { assertPhoneNumberIdAllowed, assertSenderInScope, nextDay } from "./filters-sql";
import { SIGNED_AMOUNT } from "./ledger";
import type { BillingScope } from "./messages";
import type { BillingHistoryInput, PublicBillingTransactionT } from "./schemas";
import { type BillingTransactionRow, toNumber, toPublicBillingTransaction } from "./serializers";

export type BillingSummary = {
  credits: number;
  debits: number;
  refunds: number;
  adjustments: number;
  balance: number;
  currency: string;
};

export type BillingHistoryPage = {
  senderId: string | null;
  phoneNumberId: string | null;
  scope: BillingScope;
  transactions: PublicBillingTransactionT[];
  summary: BillingSummary;
  pagination: PageBlock;
};

type Filters = Omit<BillingHistoryInput, "page" | "limit" | "senderId">;

export function historyWhere(customerId: string, sender: Pick<Sender, "id"> | undefined, f: Filters): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`t."customerId" = ${customerId}`];
  if (sender) parts.push(Prisma.sql`t."senderId" = ${sender.id}`);
  if (f.phoneNumberId)
    parts.push(Prisma.sql`t."senderId" IN (SELECT s."id" FROM "Sender" s
      WHERE s."customerId" = ${customerId} AND s."phoneNumberId" = ${f.phoneNumberId})`);
  if (f.dateFrom) parts.push(Prisma.sql`t."createdAt" >= ${f.dateFrom}::timestamp`);
  if (f.dateTo) parts.push(Prisma.sql`t."createdAt" < ${nextDay(f.dateTo)}::timestamp`);
  if (f.transactionType) parts.push(Prisma.sql`t."type" = ${f.transactionType}::"TransactionType"`);
  if (f.templateType) parts.push(Prisma.sql`t."templateType" = ${f.templateType}`);
  if (f.billingClass) parts.push(Prisma.sql`t."billingClass" = ${f.billingClass}`);
  return Prisma.join(parts, " AND ");
}

type SummaryRow = { n: number; credits: string; debits: string; refunds: string; adjustments: string; balance: string };

export async function listBillingHistory(
  p: Principal,
  sender: Sender | undefined,
  q: BillingHistoryInput,
): Promise<BillingHistoryPage> {
  assertSenderInScope(p, sender);
  assertPhoneNumberIdAllowed(p, sender, q.phoneNumberId);
  const where = historyWhere(p.customerId, sender, q);
  const offset = (q.page - 1) * q.limit;
  const sum = (type: string) => Prisma.raw(`COALESCE(SUM(t."amount") FILTER (WHERE t."type" = '${type}'), 0)::text`);
  const [rows, summaryRows, customer] = await Promise.all([
    db.$queryRaw<BillingTransactionRow[]>(Prisma.sql`
      SELECT t."id", t."type"::text AS "type", t."amount", t."currency", t."description", t."billingRecordId",
             t."templateType", t."billingClass", t."pricingCategory", t."createdAt",
             s."phoneNumber" AS "senderPhoneNumber", s."phoneNumberId"
      FROM "BillingTransaction" t
      LEFT JOIN "Sender" s ON s."id" = t."senderId" AND s."customerId" = t."customerId"
      WHERE ${where}
      ORDER BY t."createdAt" DESC, t."id" DESC
      LIMIT ${q.limit} OFFSET ${offset}`),
    db.$queryRaw<SummaryRow[]>(Prisma.sql`
      SELECT count(*)::int AS "n", ${sum("credit")} AS "credits", ${sum("debit")} AS "debits",
             ${sum("refund")} AS "refunds", ${sum("adjustment")} AS "adjustments",
             COALESCE(SUM(${SIGNED_AMOUNT}), 0)::text AS "balance"
      FROM "BillingTransaction" t WHERE ${where}`),
    db.customer.findFirst({ where: { id: p.customerId }, select: { currency: true } }),
  ]);
  const s = summaryRows[0];
  const credits = toNumber(s?.credits);
  const debits = toNumber(s?.debits);
  const refunds = toNumber(s?.refunds);
  const adjustments = toNumber(s?.adjustments);
  return {
    senderId: sender?.phoneNumber ?? null,
    phoneNumberId: q.phoneNumberId ?? sender?.phoneNumberId ?? null,
    scope: sender ? "sender" : "user",
    transactions: rows.map(toPublicBillingTransaction),
    summary: {
      credits,
      debits,
      refunds,
      adjustments,
      // Summed in SQL (numeric): exact, no floating-point drift over many rows.
      balance: toNumber(s?.balance),
      currency: customer?.currency ?? "USD",
    },
    pagination: pageBlock(q.page, q.limit, s?.n ?? 0, rows.length),
  };
}
