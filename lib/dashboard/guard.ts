// The one dashboard guard (docs/members.md "Checking a permission"): every page, server action and
// app/api/dashboard handler names the permission it needs from the table in
// lib/domains/auth/permissions.ts, and this checks it against the member as loaded for
// this request (so a role change or a removal applies on the member's next request).
// Hiding a button is never the check. test/dashboard-permissions.test.ts walks every page,
// action and handler for every role.
import { redirect } from "next/navigation";
import { ApiError } from "@/lib/core/errors";
import { assertPermission, can } from "@/lib/domains/auth/access";
import type { Permission } from "@/lib/domains/auth/permissions";
import type { Principal } from "@/lib/domains/auth/principal";
import { requireApiPrincipal, requirePrincipal } from "./session";

/** Where a page or action refused for lack of a permission sends the browser. */
export const noAccessPath = (permission: Permission) => `/no-access?need=${encodeURIComponent(permission)}`;

/** Where a member is sent while their account requires two-factor and they have not set it up. */
export const TWO_FACTOR_SETUP_PATH = "/account?setup=required";

/**
 * What a member who must set up two-factor first (the account requires it, docs/security.md)
 * may still reach: the layout and home page, and their own account page.
 */
const beforeTwoFactorSetup = (p: Principal, permission: Permission) =>
  !p.twoFactorSetupRequired || permission === "dashboard" || permission === "account";

/**
 * Pages and server actions: the signed-in member holding `permission`. No session, or a
 * member since removed: /login. A role without it: the "no access" page (a server action's
 * redirect navigates there too, and its work never runs).
 */
export async function requirePermission(permission: Permission): Promise<Principal> {
  const p = await requirePrincipal();
  if (!beforeTwoFactorSetup(p, permission)) redirect(TWO_FACTOR_SETUP_PATH);
  if (!can(p, permission)) redirect(noAccessPath(permission));
  return p;
}

/** The router's session mount (app/api/dashboard/[...path]): 401 without a session, 403 PERMISSION_DENIED without the permission. */
export async function requireApiPermission(permission: Permission): Promise<Principal> {
  const p = await requireApiPrincipal();
  if (!beforeTwoFactorSetup(p, permission)) {
    throw new ApiError("PERMISSION_DENIED", "This account requires two-factor authentication: set it up first", {
      permission,
    });
  }
  assertPermission(p, permission);
  return p;
}
