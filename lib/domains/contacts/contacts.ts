// Contacts of one book: paginated listing with a search over phone, name and email; and the
// search across every book of the account (the contacts page).

import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Contact, Prisma } from "@/lib/generated/prisma/client";
import { requireContactBook } from "./books";
import type { ContactListInput, ContactSearchInput } from "./schemas";
import { contactSearchWhere } from "./search";

export type ContactPage = { contacts: Contact[]; pagination: PageBlock };

const ORDER: Prisma.ContactOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "asc" }];

export async function listContacts(p: Principal, bookUid: string, query: ContactListInput): Promise<ContactPage> {
  const book = await requireContactBook(p, bookUid);
  const where: Prisma.ContactWhereInput = {
    customerId: p.customerId,
    contactBookId: book.id,
    ...(query.search ? await contactSearchWhere(query.search) : {}),
  };
  const [total, contacts] = await Promise.all([
    db.contact.count({ where }),
    db.contact.findMany({ where, orderBy: ORDER, ...skipTake(query) }),
  ]);
  return { contacts, pagination: pageBlock(query.page, query.limit, total, contacts.length) };
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
