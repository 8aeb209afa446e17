import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("password hashing (argon2id)", () => {
  it("hashes with argon2id and a random salt, and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash.startsWith("$argon2id$")).toBe(true);
    expect(hash).toContain("m=19456,t=2,p=1");
    expect(hash).not.toContain("correct horse");
    expect(await hashPassword("correct horse battery staple")).not.toBe(hash);
    expect(await verifyPassword(hash, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(hash, "Correct horse battery staple")).toBe(false);
    expect(await verifyPassword(hash, "")).toBe(false);
  });

  it("answers false (never throws) for a stored value that is not a hash", async () => {
    expect(await verifyPassword("", "x")).toBe(false);
    expect(await verifyPassword("plain-text-password", "plain-text-password")).toBe(false);
  });
});
