// The node:crypto signer gives exactly the standardwebhooks package's signatures, and the
// package verifies them (docs/event-pipeline.md "Delivery worker").
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signingKey, signWith } from "./signing";

describe("webhook signing", () => {
  const bodies = ["{}", JSON.stringify({ text: "héllo ✓ 😀", n: 1 }), JSON.stringify({ pad: "x".repeat(5000) })];
  for (const size of [16, 24, 32, 64]) {
    it(`matches standardwebhooks with a ${size}-byte secret`, () => {
      const secret = `whsec_${randomBytes(size).toString("base64")}`;
      const key = signingKey(secret);
      const at = new Date(1_790_000_000_123);
      for (const body of bodies) {
        const ours = signWith(key, "dlv_abc123", at, body);
        expect(ours).toBe(new Webhook(secret).sign("dlv_abc123", at, body));
        const headers = {
          "webhook-id": "dlv_abc123",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": signWith(key, "dlv_abc123", new Date(), body),
        };
        expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
      }
    });
  }

  it("refuses the secrets the package refuses", () => {
    expect(() => signingKey("whsec_")).toThrow();
    expect(() => signingKey("whsec_not base64!")).toThrow();
  });
});
