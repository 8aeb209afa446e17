// SQL pieces shared by the reports: the message joined to its billing record (the
// delivery progress), the customer scope first, and the date range.

import type { Version } from "@/lib/core/version";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";

/** The effective status: the billing record's once the provider reported, else ours. */
export const STATUS_SQL = Prisma.sql`COALESCE(b."status", m."status")`;

export const FROM_SQL = Prisma.sql`"Message" m
  JOIN "Sender" s ON s."id" = m."senderId"
  LEFT JOIN "BillingRecord" b ON b."messageId" = m."providerMessageId" AND b."customerId" = m."customerId"`;

export type ScopeInput = { dateFrom?: string; dateTo?: string };

export function scopeConditions(p: Principal, sender: Sender | undefined, q: ScopeInput): Prisma.Sql[] {
  const where = [Prisma.sql`m."customerId" = ${p.customerId}`];
  if (sender) where.push(Prisma.sql`m."senderId" = ${sender.id}`);
  if (q.dateFrom) where.push(Prisma.sql`m."createdAt" >= ${new Date(`${q.dateFrom}T00:00:00Z`)}`);
  if (q.dateTo) where.push(Prisma.sql`m."createdAt" < ${new Date(Date.parse(`${q.dateTo}T00:00:00Z`) + 86_400_000)}`);
  return where;
}

export const whereSql = (parts: Prisma.Sql[]) => Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}`;

/** v3-only filters are ignored on v2 (v2 keeps its contract). */
export const v3Only = <T>(version: Version, value: T | undefined): T | undefined =>
  version === "v3" ? value : undefined;

export const scopeBlock = (sender: Sender | undefined) => ({
  senderId: sender?.phoneNumber ?? null,
  phoneNumberId: sender?.phoneNumberId ?? null,
  scope: sender ? ("sender" as const) : ("user" as const),
});
