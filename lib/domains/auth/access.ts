// The check of the permission table (permissions.ts) against a principal: used by the
// dashboard guard (lib/dashboard/guard.ts) for every page, action and handler, by the
// members services themselves, and by the router for an API token (assertTokenPermission).
import { ApiError } from "@/lib/core/errors";
import type { Member, Principal, TokenPrincipal } from "@/lib/domains/auth/principal";
import { type Permission, roleHas, type TokenPermission, tokenHolds } from "./permissions";

/** Members by their role; anything else (an API token) holds no member permission. */
export function can(p: Principal, permission: Permission): boolean {
  return p.member !== undefined && roleHas(p.member.role, permission);
}

/** The message a refused member sees (the walk test, test/dashboard-permissions.test.ts, expects it). */
export const deniedMessage = (permission: Permission) =>
  `Your role does not allow this (it needs the "${permission}" permission). Ask an owner or admin.`;

export function permissionDenied(permission: Permission): ApiError {
  return new ApiError("PERMISSION_DENIED", deniedMessage(permission), { permission });
}

/** The principal's member when it holds `permission`; PERMISSION_DENIED otherwise. */
export function assertPermission(p: Principal, permission: Permission): Member {
  if (!p.member || !can(p, permission)) throw permissionDenied(permission);
  return p.member;
}

/**
 * An API token may use a route only when it holds the route's permission (the router calls
 * this for every route; docs/tokens.md "Restricted tokens"): TOKEN_PERMISSION_DENIED names it.
 * A route naming none is open to a token holding every permission only.
 */
export function assertTokenPermission(p: TokenPrincipal, permission: TokenPermission | undefined): void {
  if (p.permissions === "all" || (permission && tokenHolds(p.permissions, permission))) return;
  throw new ApiError(
    "TOKEN_PERMISSION_DENIED",
    permission
      ? `This token does not hold the "${permission}" permission this endpoint needs`
      : "This endpoint needs a token holding every permission",
    { permission: permission ?? null },
  );
}
