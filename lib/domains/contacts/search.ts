// Prisma's `contains` passes % and _ through to LIKE as wildcards; a user's search text
// is literal, so those (and the escape character) are escaped first.
export function literalContains(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Phone numbers are stored in E.164: "+1 (415) 555-01" searches "+1415555 01" without punctuation. */
export function phoneSearchTerm(term: string): string {
  return literalContains(term.replace(/[\s().-]/g, ""));
}
