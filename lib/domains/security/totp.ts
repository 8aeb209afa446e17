// TOTP (RFC 6238) with the otpauth library: 6 digits, 30-second steps, SHA-1 (what every
// authenticator app reads from a QR code). Pure: the clock is an argument, so the window and
// the replay rule are tested with a fixed one (totp.test.ts). docs/security.md "Two-factor".
import { Secret, TOTP } from "otpauth";

export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one are accepted too (clock drift). */
export const TOTP_WINDOW = 1;
const ISSUER = "Switchboard";

/** A new random secret (160 bits), base32 as authenticator apps show it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpFor = (secret: string, label = "member") =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The otpauth:// URI the QR code carries. */
export const totpUri = (secret: string, email: string): string => totpFor(secret, email).toString();

/** The code for `at` (tests, and the e2e test computes it the same way from the shown secret). */
export const totpCode = (secret: string, at: number = Date.now()): string =>
  totpFor(secret).generate({ timestamp: at });

export const stepAt = (at: number): number => Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The time step `code` belongs to when it is valid at `at` within the window and newer than
 * `lastStep` (the last one accepted for this member: a code is never accepted twice); null otherwise.
 */
export function acceptTotp(secret: string, code: string, at: number, lastStep: number | null): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secret).validate({ token, timestamp: at, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = stepAt(at) + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}
