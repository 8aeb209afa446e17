import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { createCustomer } from "@/lib/domains/customers/service";
import { addSender } from "@/lib/domains/senders/admin";
import { uniquePhone } from "@/test/factory";
import { tokenChangesPropagated } from "@/test/token-propagation";
import { issueToken, LAST_USED_THROTTLE_MS, revokeToken, rotateToken, verifyToken } from "./service";
import { generateTokenString, hashToken } from "./token-string";

async function customerWithToken(options: { expiresAt?: Date | null } = {}) {
  const customer = await createCustomer({ name: "Token Co", plan: "starter" });
  const issued = await issueToken({ customerId: customer.id, name: "ci", expiresAt: options.expiresAt });
  return { customer, ...issued };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return "resolved";
}

describe("issueToken", () => {
  it("returns the token once and stores only its SHA-256 hash with a visible prefix", async () => {
    const { token, record } = await customerWithToken();
    expect(token).toMatch(/^swb_live_[0-9A-Za-z]{40,46}$/);
    expect(record.hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(record.prefix).toBe(token.slice(0, "swb_live_".length + 4));
    const stored = await db.apiToken.findUniqueOrThrow({ where: { id: record.id } });
    expect(JSON.stringify(stored)).not.toContain(token.slice("swb_live_".length));
    expect(stored.lastUsedAt).toBeNull();
  });

  it("gives every token a different value", async () => {
    const { customer } = await customerWithToken();
    const a = await issueToken({ customerId: customer.id, name: "a" });
    const b = await issueToken({ customerId: customer.id, name: "b" });
    expect(a.token).not.toBe(b.token);
  });
});

describe("verifyToken", () => {
  it("resolves a global token to its customer's principal", async () => {
    const { customer, token, record } = await customerWithToken();
    const { principal } = await verifyToken(token);
    expect(principal).toEqual({
      customerId: customer.id,
      plan: "starter",
      via: "token",
      tokenId: record.id,
      // The audit log names the token by these (docs/security.md "Audit log").
      token: { name: record.name, prefix: record.prefix },
      scopedSenderId: null,
      // A token made without a choice holds every permission (docs/tokens.md "Restricted tokens").
      permissions: "all",
    });
  });

  it("a restricted token's principal holds its chosen permissions; rotation and the audit log keep them", async () => {
    const { customer } = await customerWithToken();
    const { token, record } = await issueToken({
      customerId: customer.id,
      name: "read-only billing",
      permissions: ["billing"],
    });
    expect(record.permissions).toEqual(["billing"]);
    expect((await verifyToken(token)).principal.permissions).toEqual(["billing"]);
    const created = await db.auditEvent.findFirstOrThrow({ where: { targetUid: record.id, action: "token.created" } });
    expect(created.details).toMatchObject({ name: "read-only billing", permissions: ["billing"] });
    const rotated = await rotateToken(systemPrincipal(customer.id), record.id, { graceHours: 0 });
    expect((await verifyToken(rotated.token)).principal.permissions).toEqual(["billing"]);
    // A row written before the column existed (its default): every permission.
    const { record: old } = await issueToken({ customerId: customer.id, name: "old" });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: old.id } })).permissions).toEqual(["*"]);
  });

  it("resolves a number-scoped token to its sender", async () => {
    const { customer } = await customerWithToken();
    const sender = await addSender({ customerId: customer.id, phoneNumber: uniquePhone(), phoneNumberId: null });
    const { token } = await issueToken({ customerId: customer.id, name: "scoped", senderId: sender.id });
    expect((await verifyToken(token)).principal.scopedSenderId).toBe(sender.id);
  });

  it("sets lastUsedAt on use, at most once a minute", async () => {
    const { token, record } = await customerWithToken();
    const t0 = new Date(Date.now() + 1_000);
    await verifyToken(token, t0);
    const lastUsed = async () => (await db.apiToken.findUniqueOrThrow({ where: { id: record.id } })).lastUsedAt;
    expect(await lastUsed()).toEqual(t0);
    await verifyToken(token, new Date(t0.getTime() + 30_000));
    expect(await lastUsed()).toEqual(t0);
    const later = new Date(t0.getTime() + LAST_USED_THROTTLE_MS + 1_000);
    await verifyToken(token, later);
    expect(await lastUsed()).toEqual(later);
  });

  it("rejects unknown, malformed and altered tokens with INVALID_AUTH_TOKEN", async () => {
    const { token } = await customerWithToken();
    expect(await codeOf(verifyToken(generateTokenString()))).toBe("INVALID_AUTH_TOKEN");
    expect(await codeOf(verifyToken("not-a-token"))).toBe("INVALID_AUTH_TOKEN");
    expect(await codeOf(verifyToken(""))).toBe("INVALID_AUTH_TOKEN");
    const last = token.at(-1) === "a" ? "b" : "a";
    expect(await codeOf(verifyToken(`${token.slice(0, -1)}${last}`))).toBe("INVALID_AUTH_TOKEN");
    expect(await codeOf(verifyToken(hashToken(token)))).toBe("INVALID_AUTH_TOKEN");
  });

  it("rejects a revoked token", async () => {
    const { customer, token, record } = await customerWithToken();
    await verifyToken(token);
    const revoked = await revokeToken(systemPrincipal(customer.id), record.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await codeOf(verifyToken(token))).toBe("INVALID_AUTH_TOKEN");
    // Revoking twice is harmless and keeps the first revocation time.
    expect((await revokeToken(systemPrincipal(customer.id), record.id)).revokedAt).toEqual(revoked.revokedAt);
  });

  it("does not let another customer revoke a token", async () => {
    const { token, record } = await customerWithToken();
    const other = await createCustomer({ name: "Other Co" });
    expect(await codeOf(revokeToken(systemPrincipal(other.id), record.id))).toBe("NOT_FOUND");
    expect((await verifyToken(token)).record.id).toBe(record.id);
  });

  it("rejects an expired token and accepts one that has not expired yet", async () => {
    const now = new Date();
    const expired = await customerWithToken({ expiresAt: new Date(now.getTime() - 1_000) });
    expect(await codeOf(verifyToken(expired.token, now))).toBe("INVALID_AUTH_TOKEN");
    const valid = await customerWithToken({ expiresAt: new Date(now.getTime() + 60_000) });
    expect((await verifyToken(valid.token, now)).record.id).toBe(valid.record.id);
    expect(await codeOf(verifyToken(valid.token, new Date(now.getTime() + 60_000)))).toBe("INVALID_AUTH_TOKEN");
  });

  it("rejects tokens of a suspended customer", async () => {
    const { customer, token } = await customerWithToken();
    await verifyToken(token);
    // A direct update (as another process would make): the cache hears of it by NOTIFY.
    await db.customer.update({ where: { id: customer.id }, data: { status: "SUSPENDED" } });
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(token))).toBe("INVALID_AUTH_TOKEN");
  });

  it("answers CUSTOMER_TOKEN_REQUIRED for an operator token", async () => {
    const token = generateTokenString();
    await db.apiToken.create({
      data: { kind: "OPERATOR", name: "ops", prefix: token.slice(0, 13), hash: hashToken(token) },
    });
    expect(await codeOf(verifyToken(token))).toBe("CUSTOMER_TOKEN_REQUIRED");
  });
});
