// API tokens: issue (shown once), verify (hash lookup), list, revoke.

import { ApiError } from "@/lib/core/errors";
import { db, hotRows } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { storedTokenPermissions, type TokenPermissions, tokenPermissionsFrom } from "@/lib/domains/auth/permissions";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { type ApiToken, type Customer, Prisma } from "@/lib/generated/prisma/client";
import { invalidateVerifiedTokens, tokenCache, type VerifiedToken } from "./token-cache";
import { generateTokenString, hashToken, looksLikeToken, visiblePrefix } from "./token-string";

export const LAST_USED_THROTTLE_MS = 60_000;

export type IssueTokenInput = {
  customerId: string;
  name: string;
  senderId?: string | null;
  expiresAt?: Date | null;
  /** What it may do: every permission (the default) or a chosen set (docs/tokens.md "Restricted tokens"). */
  permissions?: TokenPermissions;
};

/**
 * Creates a token; the plain value is returned here and never again. `by`: who asked, for
 * the audit log (docs/security.md "Audit log"); without it the entry's actor is `system`.
 */
export async function issueToken(
  input: IssueTokenInput,
  by: Principal = systemPrincipal(input.customerId),
): Promise<{ token: string; record: ApiToken }> {
  const token = generateTokenString();
  const record = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        customerId: input.customerId,
        senderId: input.senderId ?? null,
        permissions: storedTokenPermissions(input.permissions ?? "all"),
        name: input.name,
        prefix: visiblePrefix(token),
        hash: hashToken(token),
        expiresAt: input.expiresAt ?? null,
      },
    });
    await recordAudit(tx, {
      ...auditContext({ ...by, customerId: input.customerId }),
      action: "token.created",
      target: { type: "token", uid: created.id },
      details: tokenDetails(created),
    });
    return created;
  });
  return { token, record };
}

/** What the audit log says of a token: never its value or hash. */
const tokenDetails = (t: ApiToken) => ({
  name: t.name,
  prefix: t.prefix,
  scope: t.senderId ? "number" : "global",
  senderId: t.senderId,
  permissions: tokenPermissionsFrom(t.permissions),
  expiresAt: t.expiresAt?.toISOString() ?? null,
});

export type { VerifiedToken };

/**
 * Resolves a presented token to a principal, or throws the contract's code:
 * INVALID_AUTH_TOKEN (unknown, revoked, expired, inactive customer) or
 * CUSTOMER_TOKEN_REQUIRED (a token that belongs to no customer account).
 * Verified tokens are cached by hash (lib/domains/tokens/token-cache.ts, docs/tokens.md
 * "Verified-token cache"); the expiry is checked against `now` on every hit.
 */
export async function verifyToken(presented: string, now = new Date()): Promise<VerifiedToken> {
  if (!looksLikeToken(presented)) throw invalidToken();
  const hash = hashToken(presented);
  const cache = tokenCache();
  let verified = cache.get(hash);
  if (verified?.record.expiresAt && verified.record.expiresAt <= now) {
    cache.delete(hash);
    verified = undefined;
  }
  if (!verified) {
    const ticket = cache.ticket();
    verified = await lookUpToken(hash, now);
    cache.store(hash, verified, ticket);
  }
  await touchLastUsed(verified.record, now);
  return { record: { ...verified.record }, principal: { ...verified.principal } };
}

const invalidToken = () => new ApiError("INVALID_AUTH_TOKEN", "The API token is invalid, expired or revoked");

/** The database look-up of verifyToken: one statement (token + customer). */
async function lookUpToken(hash: string, now: Date): Promise<VerifiedToken> {
  // Every cache miss runs this: plain pg, not the ORM (see hotRows).
  const [found] = await hotRows<
    ApiToken & { customerStatus: Customer["status"] | null; plan: Customer["plan"] | null }
  >(
    Prisma.sql`SELECT t.*, c."status" AS "customerStatus", c."plan" AS "plan"
      FROM "ApiToken" t LEFT JOIN "Customer" c ON c."id" = t."customerId"
      WHERE t."hash" = ${hash}`,
  );
  if (!found || found.revokedAt || (found.expiresAt && found.expiresAt <= now)) throw invalidToken();
  const { customerStatus, plan, ...record } = found;
  if (record.kind !== "CUSTOMER" || !record.customerId || !plan) {
    throw new ApiError("CUSTOMER_TOKEN_REQUIRED", "This token does not belong to a customer account");
  }
  if (customerStatus !== "ACTIVE") throw invalidToken();
  return {
    record,
    principal: {
      customerId: record.customerId,
      plan,
      via: "token",
      tokenId: record.id,
      token: { name: record.name, prefix: record.prefix },
      scopedSenderId: record.senderId,
      permissions: tokenPermissionsFrom(record.permissions),
    },
  };
}

/**
 * At most one lastUsedAt write per token per minute (per process; the condition in the
 * WHERE keeps concurrent requests and other processes from all writing). `record` is the
 * cached one: it remembers the write, so the next minute's hits write nothing. The column
 * is left out of the change notification (docs/tokens.md). A failed update must not fail
 * the request.
 */
async function touchLastUsed(record: ApiToken, now: Date): Promise<void> {
  if (record.lastUsedAt && now.getTime() - record.lastUsedAt.getTime() < LAST_USED_THROTTLE_MS) return;
  record.lastUsedAt = now;
  const stale = new Date(now.getTime() - LAST_USED_THROTTLE_MS);
  await db.apiToken
    .updateMany({
      where: { id: record.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: stale } }] },
      data: { lastUsedAt: now },
    })
    .catch(() => {});
}

export async function listTokens(p: Principal) {
  return db.apiToken.findMany({
    where: { customerId: p.customerId },
    orderBy: { createdAt: "desc" },
    include: { sender: { select: { phoneNumber: true } } },
  });
}

/** Revokes a token of this customer; revoking twice is harmless. */
export async function revokeToken(p: Principal, tokenId: string): Promise<ApiToken> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({
      where: { id: tokenId, customerId: p.customerId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    // Only the revocation that happened is recorded, not a repeat.
    if (count === 1) {
      await recordAudit(tx, {
        ...auditContext(p),
        action: "token.revoked",
        target: { type: "token", uid: tokenId },
      });
    }
  });
  invalidateVerifiedTokens();
  const token = await db.apiToken.findFirst({ where: { id: tokenId, customerId: p.customerId } });
  if (!token) throw new ApiError("NOT_FOUND", "Token not found");
  return token;
}

export const DEFAULT_ROTATION_GRACE_HOURS = 24;
export const MAX_ROTATION_GRACE_HOURS = 7 * 24;

export type RotatedToken = { token: string; successor: ApiToken; previous: ApiToken };

/**
 * Rotation with overlap (docs/tokens.md): issues a successor with the same name, scope,
 * sender and permissions (shown once) and lets the old token work for `graceHours` more (0 to 7
 * days), never past an expiry it already had. verifyToken needs no change: the grace
 * is the old row's expiresAt (checked on every cache hit too). The successor keeps the
 * old token's own expiry, if any.
 */
export async function rotateToken(
  p: Principal,
  tokenId: string,
  options: { graceHours?: number; now?: Date } = {},
): Promise<RotatedToken> {
  const graceHours = options.graceHours ?? DEFAULT_ROTATION_GRACE_HOURS;
  if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > MAX_ROTATION_GRACE_HOURS) {
    throw new ApiError("VALIDATION_FAILED", `graceHours must be between 0 and ${MAX_ROTATION_GRACE_HOURS}`);
  }
  // An absent tenant must never widen the where below to every customer's tokens.
  if (!p.customerId) throw new ApiError("NOT_FOUND", "Token not found");
  const now = options.now ?? new Date();
  const graceEnd = new Date(now.getTime() + graceHours * 3_600_000);
  const token = generateTokenString();
  const rotated = await db.$transaction(async (tx) => {
    const old = await tx.apiToken.findFirst({ where: { id: tokenId, customerId: p.customerId } });
    if (!old) throw new ApiError("NOT_FOUND", "Token not found");
    if (old.revokedAt || (old.expiresAt && old.expiresAt <= now)) {
      throw new ApiError("CONFLICT", "Only an active token can be rotated");
    }
    const ownExpiry = old.expiresAt;
    const previous = await tx.apiToken.update({
      where: { id: old.id },
      data: { expiresAt: ownExpiry && ownExpiry < graceEnd ? ownExpiry : graceEnd },
    });
    const successor = await tx.apiToken.create({
      data: {
        customerId: old.customerId,
        senderId: old.senderId,
        permissions: old.permissions,
        kind: old.kind,
        name: old.name,
        prefix: visiblePrefix(token),
        hash: hashToken(token),
        expiresAt: ownExpiry,
      },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "token.rotated",
      target: { type: "token", uid: old.id },
      details: { successorTokenId: successor.id, successorPrefix: successor.prefix, graceHours },
    });
    return { token, successor, previous };
  });
  invalidateVerifiedTokens();
  return rotated;
}

/** One token of this customer (dashboard detail page); null for anyone else's. */
export async function findToken(p: Pick<Principal, "customerId">, tokenId: string) {
  if (!p.customerId) return null;
  return db.apiToken.findFirst({
    where: { id: tokenId, customerId: p.customerId },
    include: { sender: { select: { phoneNumber: true } } },
  });
}
