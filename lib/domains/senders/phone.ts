// Phone numbers as senders and contacts are stored: E.164. No database code here, so input
// schemas (the API's, the operator CLI's) can use it without loading the Prisma client.

/** "+1 555..." / "1555..." / " 1555..." (a "+" decoded as a space in a query) to E.164. */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/[\s()-]/g, "").replace(/^\+/, "");
  return `+${digits}`;
}

export const E164 = /^\+[1-9]\d{6,14}$/;
