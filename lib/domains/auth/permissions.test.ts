// The one permission vocabulary (docs/tokens.md "Restricted tokens"): a token's permissions are
// member permissions, stored and read back one-to-one, "all" for every token made before.
import { describe, expect, it } from "vitest";
import { assertTokenPermission } from "./access";
import {
  ALL_PERMISSIONS_STORED,
  isPermission,
  PERMISSIONS,
  storedTokenPermissions,
  TOKEN_PERMISSION_SUMMARY,
  TOKEN_PERMISSIONS,
  tokenHolds,
  tokenPermissionsFrom,
} from "./permissions";
import type { TokenPrincipal } from "./principal";

const tokenWith = (permissions: TokenPrincipal["permissions"]): TokenPrincipal => ({
  via: "token",
  customerId: "c1",
  plan: "pro",
  tokenId: "t1",
  token: { name: "ci", prefix: "swb_live_ab" },
  scopedSenderId: null,
  permissions,
});

describe("token permissions", () => {
  it("are member permissions, each held by some role, each summarised once", () => {
    for (const permission of TOKEN_PERMISSIONS) {
      expect(isPermission(permission), permission).toBe(true);
      expect(PERMISSIONS[permission].length, permission).toBeGreaterThan(0);
      expect(TOKEN_PERMISSION_SUMMARY[permission], permission).toBeTruthy();
    }
    expect(new Set(TOKEN_PERMISSIONS).size).toBe(TOKEN_PERMISSIONS.length);
    expect(Object.keys(TOKEN_PERMISSION_SUMMARY).sort()).toEqual([...TOKEN_PERMISSIONS].sort());
  });

  it("store and read back one-to-one; the column's default reads as all", () => {
    expect(tokenPermissionsFrom([ALL_PERMISSIONS_STORED])).toBe("all");
    expect(storedTokenPermissions("all")).toEqual([ALL_PERMISSIONS_STORED]);
    for (const permission of TOKEN_PERMISSIONS) {
      expect(tokenPermissionsFrom(storedTokenPermissions([permission]))).toEqual([permission]);
    }
    // Stored in the vocabulary's order, whatever order they were chosen in.
    expect(storedTokenPermissions(["billing", "messages.send"])).toEqual(["messages.send", "billing"]);
    expect(tokenPermissionsFrom(storedTokenPermissions([...TOKEN_PERMISSIONS]))).toEqual(TOKEN_PERMISSIONS);
  });

  it("a stored name the vocabulary does not have grants nothing", () => {
    expect(tokenPermissionsFrom(["billing", "members", "everything"])).toEqual(["billing"]);
    expect(tokenPermissionsFrom([])).toEqual([]);
  });

  it("all holds every permission; a set only its own", () => {
    for (const permission of TOKEN_PERMISSIONS) expect(tokenHolds("all", permission)).toBe(true);
    expect(tokenHolds(["billing"], "billing")).toBe(true);
    expect(tokenHolds(["billing"], "messages.send")).toBe(false);
    expect(tokenHolds([], "billing")).toBe(false);
  });

  it("assertTokenPermission refuses with TOKEN_PERMISSION_DENIED naming the permission", () => {
    expect(() => assertTokenPermission(tokenWith("all"), "audit")).not.toThrow();
    expect(() => assertTokenPermission(tokenWith(["audit"]), "audit")).not.toThrow();
    expect(() => assertTokenPermission(tokenWith(["billing"]), "audit")).toThrow(
      expect.objectContaining({ code: "TOKEN_PERMISSION_DENIED", details: { permission: "audit" } }),
    );
    // A route naming no permission is open to a token holding all of them only.
    expect(() => assertTokenPermission(tokenWith("all"), undefined)).not.toThrow();
    expect(() => assertTokenPermission(tokenWith([...TOKEN_PERMISSIONS]), undefined)).toThrow(
      expect.objectContaining({ code: "TOKEN_PERMISSION_DENIED" }),
    );
  });
});
