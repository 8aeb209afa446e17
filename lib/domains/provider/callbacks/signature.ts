// X-Hub-Signature-256: "sha256=" + lower-case hex HMAC-SHA256 of the raw body, keyed with
// the provider app secret. Compared in constant time.
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/core/env";

export const SIGNATURE_HEADER = "x-hub-signature-256";

export function signProviderBody(rawBody: string | Buffer, secret: string = env().PROVIDER_APP_SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

export function verifyProviderSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string = env().PROVIDER_APP_SECRET,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(signProviderBody(rawBody, secret), "utf8");
  const given = Buffer.from(header.trim().toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
