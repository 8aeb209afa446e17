// Contacts of one book: paginated listing with a search over phone, name and email.

import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Contact, Prisma } from "@/lib/generated/prisma/client";
import { requireContactBook } from "./books";
import type { ContactListInput } from "./schemas";
import { literalContains, phoneSearchTerm } from "./search";

export type ContactPage = { contacts: Contact[]; pagination: PageBlock };

export async function listContacts(p: Principal, bookUid: string, query: ContactListInput): Promise<ContactPage> {
  const book = await requireContactBook(p, bookUid);
  const where: Prisma.ContactWhereInput = { customerId: p.customerId, contactBookId: book.id };
  if (query.search) {
    const term = literalContains(query.search);
    const phoneTerm = phoneSearchTerm(query.search);
    where.OR = [
      { name: { contains: term, mode: "insensitive" } },
      { email: { contains: term, mode: "insensitive" } },
      ...(phoneTerm ? [{ phoneNumber: { contains: phoneTerm } }] : []),
    ];
  }
  const [total, contacts] = await Promise.all([
    db.contact.count({ where }),
    db.contact.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], ...skipTake(query) }),
  ]);
  return { contacts, pagination: pageBlock(query.page, query.limit, total, contacts.length) };
}
