// Contact books of a customer account: list, create, read, update. Every query carries
// the customer in its WHERE; a book of another customer is simply not found.

import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ContactBookInput, ContactBookListInput, ContactBookPatchInput } from "./schemas";
import { literalContains } from "./search";
import type { ContactBookWithCount } from "./serializers";

const withCount = { _count: { select: { contacts: true } } } as const;

/** The contact-book list's pagination block (docs/api/pagination.md): no total, hasMore from one extra row. */
export type ContactBookPage = {
  books: ContactBookWithCount[];
  pagination: { page: number; limit: number; count: number; hasMore: boolean };
};

export const contactBookNotFound = () => new ApiError("NOT_FOUND", "Contact book not found");

export async function listContactBooks(p: Principal, query: ContactBookListInput): Promise<ContactBookPage> {
  const where: Prisma.ContactBookWhereInput = { customerId: p.customerId };
  if (query.status) where.status = query.status;
  if (query.search) {
    const term = literalContains(query.search);
    where.OR = [
      { name: { contains: term, mode: "insensitive" } },
      { description: { contains: term, mode: "insensitive" } },
    ];
  }
  const { skip, take } = skipTake(query);
  const rows = await db.contactBook.findMany({
    where,
    include: withCount,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip,
    take: take + 1,
  });
  const books = rows.slice(0, take);
  return {
    books,
    pagination: { page: query.page, limit: query.limit, count: books.length, hasMore: rows.length > take },
  };
}

export async function createContactBook(p: Principal, input: ContactBookInput): Promise<ContactBookWithCount> {
  return db.contactBook.create({
    data: {
      customerId: p.customerId,
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.color !== undefined ? { color: input.color } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    },
    include: withCount,
  });
}

export async function getContactBook(p: Principal, uid: string): Promise<ContactBookWithCount> {
  const book = await db.contactBook.findFirst({ where: { id: uid, customerId: p.customerId }, include: withCount });
  if (!book) throw contactBookNotFound();
  return book;
}

/** Updates by { id, customerId } in one statement, then reads the result back. */
export async function updateContactBook(
  p: Principal,
  uid: string,
  patch: ContactBookPatchInput,
): Promise<ContactBookWithCount> {
  const data: Prisma.ContactBookUpdateManyMutationInput = {};
  if (patch.name !== undefined) data.name = patch.name;
  if (patch.description !== undefined) data.description = patch.description;
  if (patch.color !== undefined) data.color = patch.color;
  if (patch.status !== undefined) data.status = patch.status;
  const { count } = await db.contactBook.updateMany({ where: { id: uid, customerId: p.customerId }, data });
  if (count === 0) throw contactBookNotFound();
  return getContactBook(p, uid);
}

/** The book's id when it belongs to this customer (for the contact services). */
export async function requireContactBook(p: Principal, uid: string, tx: Tx = db) {
  const book = await tx.contactBook.findFirst({ where: { id: uid, customerId: p.customerId }, select: { id: true } });
  if (!book) throw contactBookNotFound();
  return book;
}
