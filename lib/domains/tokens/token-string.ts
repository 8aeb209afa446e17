// Token format: swb_live_ + 32 random bytes in base62. Only a SHA-256 hash is stored,
// with a short visible prefix so people can tell their tokens apart.
import { createHash, randomBytes } from "node:crypto";
import basex from "base-x";

export const TOKEN_PREFIX = "swb_live_";
const base62 = basex("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

export function generateTokenString(): string {
  return TOKEN_PREFIX + base62.encode(randomBytes(32));
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The part shown in lists: the fixed prefix and the first four random characters. */
export function visiblePrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 4);
}

export function looksLikeToken(token: string): boolean {
  return token.startsWith(TOKEN_PREFIX) && /^[0-9A-Za-z]{40,46}$/.test(token.slice(TOKEN_PREFIX.length));
}
