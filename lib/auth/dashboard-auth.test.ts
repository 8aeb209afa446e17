// Dashboard sign-up, password login, the login limiter and dashboard token creation.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { signUp } from "@/lib/customers/signup";
import { db } from "@/lib/db";
import { createTokenFor } from "@/lib/tokens/create-for-principal";
import { TokenCreateInput } from "@/lib/tokens/schemas";
import { toPublicToken } from "@/lib/tokens/serializers";
import { verifyToken } from "@/lib/tokens/service";
import { call, createTestCustomer } from "@/test/factory";
import { checkCredentials } from "./credentials";
import { checkLogin, clearLogin, recordFailedLogin } from "./login-limiter";
import type { Principal } from "./principal";
import { SignupInput } from "./schemas";

const email = () => `user-${randomBytes(5).toString("hex")}@Example.com`;

describe("sign-up", () => {
  it("creates a pro customer and its first user in one go, and the password logs in", async () => {
    const address = email();
    const { customer, user } = await signUp(
      SignupInput.parse({ company: "Fresh Co", email: address, password: "a-long-password" }),
    );
    expect(customer.plan).toBe("pro");
    expect(user.customerId).toBe(customer.id);
    expect(user.email).toBe(address.toLowerCase());
    expect(user.passwordHash).not.toContain("a-long-password");

    const ok = await checkCredentials(address.toUpperCase(), "a-long-password");
    expect(ok?.customerId).toBe(customer.id);
    expect(await checkCredentials(address, "wrong-password")).toBeNull();
    expect(await checkCredentials(`nobody-${address}`, "a-long-password")).toBeNull();
  });

  it("refuses a second account for the same email and leaves no orphan customer", async () => {
    const address = email();
    await signUp(SignupInput.parse({ company: "First", email: address, password: "a-long-password" }));
    const company = `Second ${randomBytes(4).toString("hex")}`;
    const err = await signUp(SignupInput.parse({ company, email: address, password: "another-password" })).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("CONFLICT");
    expect(await db.customer.count({ where: { name: company } })).toBe(0);
  });

  it("rejects short passwords and bad emails with field messages", () => {
    const r = SignupInput.safeParse({ company: "X Co", email: "nope", password: "short" });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("refuses a suspended customer's user", async () => {
    const address = email();
    const { customer } = await signUp(
      SignupInput.parse({ company: "Paused", email: address, password: "a-long-password" }),
    );
    await db.customer.update({ where: { id: customer.id }, data: { status: "SUSPENDED" } });
    expect(await checkCredentials(address, "a-long-password")).toBeNull();
  });
});

describe("login rate limit (per IP + email)", () => {
  it("allows 10 failures, then refuses; another email or IP is unaffected; success clears it", async () => {
    const ip = `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const address = email();
    for (let i = 0; i < 10; i++) expect((await recordFailedLogin(ip, address)).allowed).toBe(true);
    const refused = await recordFailedLogin(ip, address);
    expect(refused.allowed).toBe(false);
    expect((await checkLogin(ip, address)).allowed).toBe(false);
    expect((await checkLogin(ip, email())).allowed).toBe(true);
    expect((await checkLogin("10.8.0.1", address)).allowed).toBe(true);
    await clearLogin(ip, address);
    expect((await checkLogin(ip, address)).allowed).toBe(true);
  });
});

describe("dashboard token creation", () => {
  it("issues global and number-scoped tokens that the API accepts, and a revoked one it rejects", async () => {
    const t = await createTestCustomer();
    const p: Principal = { customerId: t.customer.id, plan: "pro", via: "session", scopedSenderId: null };
    const global = await createTokenFor(p, TokenCreateInput.parse({ name: "ui global" }));
    expect(global.record.senderId).toBeNull();
    const scoped = await createTokenFor(
      p,
      TokenCreateInput.parse({ name: "ui scoped", senderId: t.sender.phoneNumber }),
    );
    expect(scoped.record.senderId).toBe(t.sender.id);
    expect((await verifyToken(scoped.token)).principal.scopedSenderId).toBe(t.sender.id);

    const res = await call("GET", "/api/v3/billing/messages", { token: global.token });
    expect(res.status).toBe(200);
    const pub = toPublicToken({ ...global.record, sender: null });
    expect(JSON.stringify(pub)).not.toContain(global.record.hash);
    expect(pub).toMatchObject({ scope: "global", state: "active", prefix: global.token.slice(0, 13) });
  });

  it("refuses another customer's sender and a past expiry date", async () => {
    const mine = await createTestCustomer();
    const theirs = await createTestCustomer();
    const p: Principal = { customerId: mine.customer.id, plan: "pro", via: "session", scopedSenderId: null };
    const err = await createTokenFor(
      p,
      TokenCreateInput.parse({ name: "x", senderId: theirs.sender.phoneNumber }),
    ).catch((e) => e);
    expect((err as ApiError).code).toBe("SENDER_NOT_FOUND");
    expect(TokenCreateInput.safeParse({ name: "x", expiresOn: "2001-01-01" }).success).toBe(false);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const withExpiry = await createTokenFor(p, TokenCreateInput.parse({ name: "x", expiresOn: future }));
    expect(withExpiry.record.expiresAt?.toISOString().slice(0, 10)).toBe(future);
  });
});
