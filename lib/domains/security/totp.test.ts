// TOTP with a fixed clock: the window (the step before and after), and no replay.
import { describe, expect, it } from "vitest";
import { acceptTotp, newTotpSecret, stepAt, TOTP_PERIOD_SECONDS, totpCode, totpUri } from "./totp";

const secret = newTotpSecret();
const T0 = Date.UTC(2026, 10, 26, 12, 0, 15); // 15 s into a step
const STEP = TOTP_PERIOD_SECONDS * 1000;

describe("acceptTotp", () => {
  it("accepts the current code and returns its step", () => {
    expect(acceptTotp(secret, totpCode(secret, T0), T0, null)).toBe(stepAt(T0));
  });

  it("accepts the previous and next step's codes (clock drift), nothing further", () => {
    expect(acceptTotp(secret, totpCode(secret, T0 - STEP), T0, null)).toBe(stepAt(T0) - 1);
    expect(acceptTotp(secret, totpCode(secret, T0 + STEP), T0, null)).toBe(stepAt(T0) + 1);
    expect(acceptTotp(secret, totpCode(secret, T0 - 2 * STEP), T0, null)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, T0 + 2 * STEP), T0, null)).toBeNull();
  });

  it("refuses a code already used (same step) and an older one, accepts the next step's", () => {
    const code = totpCode(secret, T0);
    const used = acceptTotp(secret, code, T0, null);
    expect(used).not.toBeNull();
    expect(acceptTotp(secret, code, T0 + 1000, used)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, T0 - STEP), T0, used)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, T0 + STEP), T0 + STEP, used)).toBe((used ?? 0) + 1);
  });

  it("refuses another secret's code, garbage and the wrong length; tolerates spaces", () => {
    expect(acceptTotp(secret, totpCode(newTotpSecret(), T0), T0, null)).toBeNull();
    expect(acceptTotp(secret, "abcdef", T0, null)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, T0).slice(0, 5), T0, null)).toBeNull();
    const code = totpCode(secret, T0);
    expect(acceptTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, T0, null)).toBe(stepAt(T0));
  });

  it("the QR code's URI names the issuer, the member and the secret", () => {
    const uri = totpUri(secret, "ana@example.test");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Switchboard:ana%40example\.test\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain("period=30");
  });
});
