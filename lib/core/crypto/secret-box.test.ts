import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { decryptSecret, encryptionKey, encryptSecret, resetEncryptionKeyCache, SecretBoxError } from "./secret-box";

const key = randomBytes(32);

/** Flips one bit in segment `index` (1 = iv, 2 = tag, 3 = ciphertext) of the stored form. */
function tamper(stored: string, index: number): string {
  const parts = stored.split(".");
  const bytes = Buffer.from(parts[index] ?? "", "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

describe("secret box (AES-256-GCM)", () => {
  afterEach(() => {
    resetEncryptionKeyCache();
    resetEnvCache();
  });

  it("round-trips, with a fresh IV each time", () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const a = encryptSecret(secret, key);
    const b = encryptSecret(secret, key);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain(secret);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key)).toBe(secret);
    expect(decryptSecret(b, key)).toBe(secret);
    expect(decryptSecret(encryptSecret("", key), key)).toBe("");
    expect(decryptSecret(encryptSecret("ünïcödé ✓", key), key)).toBe("ünïcödé ✓");
  });

  it.each([
    ["iv", 1],
    ["tag", 2],
    ["ciphertext", 3],
  ])("detects a tampered %s", (_name, index) => {
    const stored = encryptSecret("a secret value", key);
    expect(() => decryptSecret(tamper(stored, index), key)).toThrow(SecretBoxError);
  });

  it("refuses a truncated tag, a wrong key and malformed input", () => {
    const stored = encryptSecret("a secret value", key);
    const [v, iv, tag, ct] = stored.split(".");
    const shortTag = Buffer.from(tag ?? "", "base64url")
      .subarray(0, 4)
      .toString("base64url");
    expect(() => decryptSecret([v, iv, shortTag, ct].join("."), key)).toThrow(SecretBoxError);
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow(SecretBoxError);
    expect(() => decryptSecret("plain text", key)).toThrow(SecretBoxError);
    expect(() => decryptSecret(`${stored}.extra`, key)).toThrow(SecretBoxError);
    expect(() => decryptSecret(stored.replace(/^v1/, "v2"), key)).toThrow(SecretBoxError);
  });

  it("uses APP_ENCRYPTION_KEY from the environment by default", () => {
    const hex = process.env.APP_ENCRYPTION_KEY ?? "";
    expect(encryptionKey().toString("hex")).toBe(hex.toLowerCase());
    const stored = encryptSecret("from env");
    expect(decryptSecret(stored, Buffer.from(hex, "hex"))).toBe("from env");
    expect(() => decryptSecret(stored, key)).toThrow(SecretBoxError);
  });
});
