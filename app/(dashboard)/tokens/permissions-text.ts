import type { TokenPermissions } from "@/lib/domains/auth/permissions";

/** A token's permissions as the list and its page show them (docs/tokens.md "Restricted tokens"). */
export const permissionsText = (permissions: TokenPermissions) =>
  permissions === "all" ? "All" : `Only ${permissions.join(", ")}`;
