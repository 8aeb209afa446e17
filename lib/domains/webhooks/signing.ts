// Standard Webhooks signatures (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) with
// node:crypto. The standardwebhooks package computes the same value in JavaScript
// (fast-sha256), which was a visible share of a delivery's CPU (docs/event-pipeline.md
// "Delivery worker"); its constructor still decodes and validates the secret, so a
// secret it would refuse is refused here too. signing.test.ts checks both agree.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";

const PREFIX = "whsec_";

/** The HMAC key of a `whsec_…` secret, decoded as the standardwebhooks package decodes it. */
export function signingKey(secret: string): Buffer {
  new Webhook(secret); // throws on a secret the package refuses (not base64, empty)
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}

/** The `v1,…` signature of one message: the same string as `new Webhook(secret).sign(id, at, body)`. */
export function signWith(key: Buffer, msgId: string, at: Date, body: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return `v1,${createHmac("sha256", key).update(`${msgId}.${seconds}.`).update(body).digest("base64")}`;
}
