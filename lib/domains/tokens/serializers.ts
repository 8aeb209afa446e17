import { tokenPermissionsFrom } from "@/lib/domains/auth/permissions";
import type { ApiToken } from "@/lib/generated/prisma/client";

type TokenRow = ApiToken & { sender?: { phoneNumber: string } | null };

/** What the dashboard may show about a token: never the hash. */
export function toPublicToken(t: TokenRow, now = new Date()) {
  const state = t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "active";
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scope: t.senderId ? "number" : "global",
    senderPhoneNumber: t.sender?.phoneNumber ?? null,
    /** "all", or the chosen permissions of a restricted token. */
    permissions: tokenPermissionsFrom(t.permissions),
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    expiresAt: t.expiresAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
    state,
  } as const;
}
