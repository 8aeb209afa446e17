// The provider's media URL, valid 5 minutes (docs/media.md "Provider SDKs"): our content
// route with an expiry and an HMAC over the media id and that expiry. It still needs the
// token, as the provider's does; the signature only makes the link expire like theirs.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { encryptionKey } from "@/lib/core/crypto/secret-box";

export const SIGNED_URL_SECONDS = 300;

let key: Buffer | undefined;
const signingKey = () => {
  key ??= Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), "switchboard media url", 32));
  return key;
};

const mac = (mediaId: string, expires: number) =>
  createHmac("sha256", signingKey()).update(`${mediaId}.${expires}`).digest("base64url");

/** The query of a link to a media's content that expires in 5 minutes. */
export function signContent(mediaId: string, now = Date.now()): { expires: number; signature: string } {
  const expires = Math.floor(now / 1000) + SIGNED_URL_SECONDS;
  return { expires, signature: mac(mediaId, expires) };
}

/** Whether a link's expiry and signature are this service's for this media and not past. */
export function signedContentValid(mediaId: string, expires: number, signature: string, now = Date.now()): boolean {
  if (expires * 1000 < now) return false;
  const expected = Buffer.from(mac(mediaId, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
