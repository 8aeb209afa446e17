// Two-factor recovery codes (docs/security.md): 10 per setup, shown once, only their SHA-256
// stored, each usable once. A code is 10 characters of an alphabet without look-alikes,
// shown as xxxxx-xxxxx; typed with or without the dash, in any case.
import { createHash, randomInt } from "node:crypto";

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function oneCode(): string {
  let raw = "";
  for (let i = 0; i < 10; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** Ten new distinct codes, as shown to the member. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(oneCode());
  return [...codes];
}

/** The normalised form (no dash or spaces, lower case), or null when it cannot be a recovery code. */
export function normaliseRecoveryCode(typed: string): string | null {
  const raw = typed.replace(/[\s-]+/g, "").toLowerCase();
  return /^[a-z0-9]{10}$/.test(raw) ? raw : null;
}

export const hashRecoveryCode = (normalised: string): string =>
  createHash("sha256").update(`recovery:${normalised}`).digest("hex");
