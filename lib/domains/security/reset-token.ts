// Password reset links (docs/security.md "Password reset"): a random token in the link,
// only its SHA-256 stored, valid one hour, used once. Pure, so the hour is tested with a clock.
import { createHash, randomBytes } from "node:crypto";

export const RESET_TTL_MS = 3600_000;

export const hashResetToken = (token: string) => createHash("sha256").update(`reset:${token}`).digest("hex");

/** The token's shape (43 base64url characters): anything else is refused before a lookup. */
export const isResetTokenShape = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

export const resetPath = (token: string) => `/reset-password/${token}`;

/** A new link's token (sent, never stored), its hash (stored) and its end. */
export function newResetToken(now: number = Date.now()) {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashResetToken(token), expiresAt: new Date(now + RESET_TTL_MS) };
}

/** Whether a stored reset can still be used at `now`: not used yet and within its hour. */
export const resetUsable = (reset: { expiresAt: Date; usedAt: Date | null }, now: number = Date.now()) =>
  reset.usedAt === null && reset.expiresAt.getTime() > now;
