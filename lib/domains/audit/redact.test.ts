// The net under the recorders (docs/security.md "Audit log"): secret-named keys and
// secret-shaped values never reach an entry; names, prefixes and ids pass.
import { describe, expect, it } from "vitest";
import { looksSecret, REDACTED, redactDetails } from "./redact";

const TOKEN = `swb_live_${"A1b2C3d4E5".repeat(4)}`;
const SIGNING = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

describe("redactDetails", () => {
  it("replaces secret-named keys at any depth, whatever their value", () => {
    expect(
      redactDetails({ password: "hunter2", nested: { signingSecret: "x", token: "y", list: [{ otpCode: "1" }] } }),
    ).toEqual({
      password: REDACTED,
      nested: { signingSecret: REDACTED, token: REDACTED, list: [{ otpCode: REDACTED }] },
    });
  });

  it("replaces values shaped like a token or signing secret, in strings and arrays", () => {
    expect(redactDetails({ note: TOKEN, more: [SIGNING, "fine"] })).toEqual({
      note: REDACTED,
      more: [REDACTED, "fine"],
    });
  });

  it("keeps what an entry is for: names, a token's visible prefix, ids, emails, flags", () => {
    const details = { name: "CI deploys", prefix: "swb_live_AbC1", senderId: "cm123", email: "a@b.c", isDefault: true };
    expect(redactDetails(details)).toEqual(details);
    expect(looksSecret("swb_live_AbC1")).toBe(false);
    expect(looksSecret(TOKEN)).toBe(true);
  });
});
