import { describe, expect, it } from "vitest";
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode, RECOVERY_CODE_COUNT } from "./recovery-codes";

describe("recovery codes", () => {
  it("ten distinct codes of the shown shape", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it("typed with or without the dash, in any case, hashes the same; the hash is not the code", () => {
    const [code = ""] = newRecoveryCodes();
    const a = normaliseRecoveryCode(code);
    const b = normaliseRecoveryCode(` ${code.replace("-", "").toUpperCase()} `);
    expect(a).not.toBeNull();
    expect(a).toBe(b);
    expect(hashRecoveryCode(a ?? "")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode(a ?? "")).not.toContain(a);
  });

  it("a TOTP code or garbage is no recovery code", () => {
    expect(normaliseRecoveryCode("123456")).toBeNull();
    expect(normaliseRecoveryCode("abc")).toBeNull();
  });
});
