// The operator's view of customers (the CLI, docs/operator-cli.md "Customers"): naming one by
// what an operator is told (its id, a member's email, one of its sender numbers), and the list
// of every customer with what identifies it and its balance.
import { db } from "@/lib/db";
import { SIGNED_AMOUNT } from "@/lib/domains/billing/ledger";
import { parsePhone } from "@/lib/domains/senders/phone";
import { Prisma } from "@/lib/generated/prisma/client";

export type CustomerRef = { id: string; name: string; currency: string; via: "id" | "email" | "sender" };

/**
 * The customer an operator names: its id, the email of one of its members (the owner's, as a
 * customer writing in gives it), or one of its sender numbers (E.164, "+" included). Emails
 * and sender numbers are unique across accounts, so each names at most one customer.
 */
export async function findCustomerByRef(ref: string): Promise<CustomerRef | null> {
  const text = ref.trim();
  const select = { id: true, name: true, currency: true } as const;
  if (text.includes("@")) {
    const user = await db.user.findUnique({
      where: { email: text.toLowerCase() },
      select: { customer: { select } },
    });
    return user?.customer ? { ...user.customer, via: "email" } : null;
  }
  if (text.startsWith("+")) {
    const phone = parsePhone(text);
    if (!phone.ok) return null;
    const sender = await db.sender.findUnique({ where: { phoneNumber: phone.e164 }, select: { customer: { select } } });
    return sender ? { ...sender.customer, via: "sender" } : null;
  }
  const customer = await db.customer.findUnique({ where: { id: text }, select });
  return customer ? { ...customer, via: "id" } : null;
}

export type CustomerListItem = {
  customerId: string;
  name: string;
  plan: string;
  status: string;
  currency: string;
  /** The owners' emails (the members an operator deals with). */
  owners: string[];
  senders: string[];
  /** The ledger balance, exact, as text (numeric). */
  balance: string;
  createdAt: string;
};

/** Every customer, newest first, or those whose name, id, member email or sender number contains `search`. */
export async function listCustomers(options: { search?: string; limit: number }): Promise<CustomerListItem[]> {
  const term = options.search?.trim();
  const like = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const matches = like
    ? Prisma.sql`AND (c."name" ILIKE ${like} OR c."id" ILIKE ${like}
        OR EXISTS (SELECT 1 FROM "User" u WHERE u."customerId" = c."id" AND u."email" ILIKE ${like})
        OR EXISTS (SELECT 1 FROM "Sender" s WHERE s."customerId" = c."id" AND s."phoneNumber" ILIKE ${like}))`
    : Prisma.empty;
  const rows = await db.$queryRaw<(Omit<CustomerListItem, "createdAt"> & { createdAt: Date })[]>(Prisma.sql`
    SELECT c."id" AS "customerId", c."name", c."plan"::text AS "plan", c."status"::text AS "status", c."currency",
      COALESCE((SELECT array_agg(u."email" ORDER BY u."createdAt") FROM "User" u
                WHERE u."customerId" = c."id" AND u."role" = 'owner'), '{}') AS "owners",
      COALESCE((SELECT array_agg(s."phoneNumber" ORDER BY s."createdAt") FROM "Sender" s
                WHERE s."customerId" = c."id"), '{}') AS "senders",
      COALESCE((SELECT SUM(${SIGNED_AMOUNT}) FROM "BillingTransaction" t WHERE t."customerId" = c."id"), 0)::text
        AS "balance",
      c."createdAt"
    FROM "Customer" c
    WHERE true ${matches}
    ORDER BY c."createdAt" DESC, c."id"
    LIMIT ${options.limit}`);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
