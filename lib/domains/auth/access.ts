// The check of the permission table (permissions.ts) against a principal: used by the
// dashboard guard (lib/dashboard/guard.ts) for every page, action and handler, and by the
// members services themselves.
import { ApiError } from "@/lib/core/errors";
import type { Member, Principal } from "@/lib/domains/auth/principal";
import { type Permission, roleHas } from "./permissions";

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
