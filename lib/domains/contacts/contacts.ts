// Contacts of one book: paginated listing with a search over phone, name and email; and the
// search across every book of the account (the contacts page).

import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { type Contact, Prisma } from "@/lib/generated/prisma/client";
import { requireContactBook } from "./books";
import type { ContactListInput, ContactSearchInput } from "./schemas";
import { contactSearchSql, contactSearchWhere } from "./search";

/** A contact with the labels its phone number carries in the account, sorted by name. */
export type LabelledContact = Contact & { labels: string[] };
export type ContactPage = { contacts: LabelledContact[]; pagination: PageBlock };

/**
 * The labels of these numbers in the account (docs/automation.md "Labels": kept per phone
 * number), in one read, each list sorted by name as the labels service sorts them.
 */
async function labelsByPhone(customerId: string, phones: string[]): Promise<Map<string, string[]>> {
  const byPhone = new Map<string, string[]>();
  if (phones.length === 0) return byPhone;
  const rows = await db.$queryRaw<{ phoneNumber: string; name: string }[]>(Prisma.sql`
    SELECT cl."phoneNumber", l."name" FROM "ContactLabel" cl JOIN "Label" l ON l."id" = cl."labelId"
    WHERE cl."customerId" = ${customerId} AND cl."phoneNumber" = ANY(${[...new Set(phones)]}::text[])
    ORDER BY l."nameKey" COLLATE "C", l."name" COLLATE "C"`);
  for (const r of rows) byPhone.set(r.phoneNumber, [...(byPhone.get(r.phoneNumber) ?? []), r.name]);
  return byPhone;
}

const withLabels = async <C extends Contact>(
  customerId: string,
  contacts: C[],
): Promise<(C & { labels: string[] })[]> => {
  const labels = await labelsByPhone(
    customerId,
    contacts.map((c) => c.phoneNumber),
  );
  return contacts.map((c) => ({ ...c, labels: labels.get(c.phoneNumber) ?? [] }));
};

/** A label filter (a name, whatever the case): the numbers carrying it, as a condition on Contact. */
const labelWhere = (customerId: string, label: string): Prisma.Sql =>
  Prisma.sql`EXISTS (SELECT 1 FROM "ContactLabel" cl JOIN "Label" l ON l."id" = cl."labelId"
        WHERE cl."customerId" = c."customerId" AND cl."phoneNumber" = c."phoneNumber"
          AND l."customerId" = ${customerId} AND l."nameKey" = ${label.trim().toLowerCase()})`;

const ORDER: Prisma.ContactOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "asc" }];

export async function listContacts(p: Principal, bookUid: string, query: ContactListInput): Promise<ContactPage> {
  const book = await requireContactBook(p, bookUid);
  if (query.label !== undefined) return listLabelledContacts(p.customerId, book.id, query.label, query);
  const where: Prisma.ContactWhereInput = {
    customerId: p.customerId,
    contactBookId: book.id,
    ...(query.search ? await contactSearchWhere(query.search) : {}),
  };
  const [total, contacts] = await Promise.all([
    db.contact.count({ where }),
    db.contact.findMany({ where, orderBy: ORDER, ...skipTake(query) }),
  ]);
  return {
    contacts: await withLabels(p.customerId, contacts),
    pagination: pageBlock(query.page, query.limit, total, contacts.length),
  };
}

/**
 * The book's contacts carrying a label: the count and the page's ids in SQL (the label is a
 * condition on the number, which Prisma cannot join), then that page's rows. Only a page of
 * ids leaves the database, however many contacts carry the label.
 */
async function listLabelledContacts(
  customerId: string,
  bookId: string,
  label: string,
  query: ContactListInput,
): Promise<ContactPage> {
  const conditions = [
    Prisma.sql`c."customerId" = ${customerId}`,
    Prisma.sql`c."contactBookId" = ${bookId}`,
    labelWhere(customerId, label),
    ...(query.search ? [await contactSearchSql(query.search)] : []),
  ];
  const where = Prisma.join(conditions, " AND ");
  const { skip, take } = skipTake(query);
  const [counted, page] = await Promise.all([
    db.$queryRaw<{ total: bigint }[]>(Prisma.sql`SELECT count(*) AS total FROM "Contact" c WHERE ${where}`),
    db.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT c."id" FROM "Contact" c WHERE ${where}
      ORDER BY c."createdAt" DESC, c."id" ASC LIMIT ${take} OFFSET ${skip}`),
  ]);
  const rows = await db.contact.findMany({ where: { customerId, id: { in: page.map((r) => r.id) } } });
  const byId = new Map(rows.map((c) => [c.id, c]));
  const contacts = page.flatMap((r) => byId.get(r.id) ?? []);
  return {
    contacts: await withLabels(customerId, contacts),
    pagination: pageBlock(query.page, query.limit, Number(counted[0]?.total ?? 0), contacts.length),
  };
}

export type ContactWithBook = Contact & { contactBook: { id: string; name: string } };

/** Contacts of every book of the account matching the search, each with the book it is in. */
export async function searchAllContacts(
  p: Principal,
  query: ContactSearchInput,
): Promise<{ contacts: ContactWithBook[]; pagination: PageBlock }> {
  const where: Prisma.ContactWhereInput = { customerId: p.customerId, ...(await contactSearchWhere(query.search)) };
  const [total, contacts] = await Promise.all([
    db.contact.count({ where }),
    db.contact.findMany({
      where,
      orderBy: ORDER,
      include: { contactBook: { select: { id: true, name: true } } },
      ...skipTake(query),
    }),
  ]);
  return { contacts, pagination: pageBlock(query.page, query.limit, total, contacts.length) };
}
