// The billing explorer's figures for the filtered set: totals (messages, payable, cost)
// and cost per day stacked by pricing category. Same filters and scope as the list.
//
// payable = records whose billingClass is "payable"; cost = the sum of their rates
// (free records cost nothing whatever rate they carry). Days are UTC calendar days of
// createdAt, like the dateFrom/dateTo filters.

import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { assertPhoneNumberIdAllowed, assertSenderInScope, billingWhere } from "./filters-sql";
import type { BillingFiltersInput } from "./schemas";
import { toNumber } from "./serializers";

export type BillingTotals = { messages: number; payable: number; cost: number };
export type CostPerDay = { day: string; category: string | null; cost: number; messages: number };

const COST = Prisma.raw(`COALESCE(SUM(b."rate") FILTER (WHERE b."billingClass" = 'payable'), 0)::text`);

export function billingTotalsSql(p: Principal, sender: Sender | undefined, filters: BillingFiltersInput) {
  return Prisma.sql`SELECT count(*)::int AS "messages",
      (count(*) FILTER (WHERE b."billingClass" = 'payable'))::int AS "payable", ${COST} AS "cost"
    FROM "BillingRecord" b WHERE ${billingWhere(p.customerId, sender, filters)}`;
}

export async function billingTotals(
  p: Principal,
  sender: Sender | undefined,
  filters: BillingFiltersInput,
): Promise<BillingTotals> {
  assertSenderInScope(p, sender);
  assertPhoneNumberIdAllowed(p, sender, filters.phoneNumberId);
  const rows = await db.$queryRaw<{ messages: number; payable: number; cost: string }[]>(
    billingTotalsSql(p, sender, filters),
  );
  const r = rows[0];
  return { messages: r?.messages ?? 0, payable: r?.payable ?? 0, cost: toNumber(r?.cost) };
}

export function costPerDaySql(p: Principal, sender: Sender | undefined, filters: BillingFiltersInput) {
  return Prisma.sql`SELECT to_char(date_trunc('day', b."createdAt"), 'YYYY-MM-DD') AS "day",
      b."pricingCategory" AS "category", ${COST} AS "cost", count(*)::int AS "messages"
    FROM "BillingRecord" b WHERE ${billingWhere(p.customerId, sender, filters)}
    GROUP BY 1, 2 ORDER BY 1 ASC, 2 ASC NULLS LAST`;
}

/** One row per (UTC day, pricing category) that has records, oldest day first. */
export async function costPerDay(
  p: Principal,
  sender: Sender | undefined,
  filters: BillingFiltersInput,
): Promise<CostPerDay[]> {
  assertSenderInScope(p, sender);
  assertPhoneNumberIdAllowed(p, sender, filters.phoneNumberId);
  const rows = await db.$queryRaw<{ day: string; category: string | null; cost: string; messages: number }[]>(
    costPerDaySql(p, sender, filters),
  );
  return rows.map((r) => ({ day: r.day, category: r.category, cost: toNumber(r.cost), messages: r.messages }));
}
