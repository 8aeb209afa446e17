import { describe, expect, it } from "vitest";
import { hashResetToken, isResetTokenShape, newResetToken, RESET_TTL_MS, resetUsable } from "./reset-token";

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

describe("reset tokens", () => {
  it("a token of the link's shape; only its hash is stored", () => {
    const { token, tokenHash, expiresAt } = newResetToken(NOW);
    expect(isResetTokenShape(token)).toBe(true);
    expect(tokenHash).toBe(hashResetToken(token));
    expect(tokenHash).not.toContain(token);
    expect(expiresAt.getTime()).toBe(NOW + RESET_TTL_MS);
    expect(RESET_TTL_MS).toBe(3600_000);
  });

  it("usable within the hour, not at or after its end", () => {
    const { expiresAt } = newResetToken(NOW);
    expect(resetUsable({ expiresAt, usedAt: null }, NOW + 59 * 60_000)).toBe(true);
    expect(resetUsable({ expiresAt, usedAt: null }, NOW + 3600_000)).toBe(false);
    expect(resetUsable({ expiresAt, usedAt: null }, NOW + 2 * 3600_000)).toBe(false);
  });

  it("not usable once used", () => {
    const { expiresAt } = newResetToken(NOW);
    expect(resetUsable({ expiresAt, usedAt: new Date(NOW + 1000) }, NOW + 2000)).toBe(false);
  });
});
