// Dashboard sign-up, password login, the login limiter and dashboard token creation.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { type SignUpOutcome, signUp } from "@/lib/domains/customers/signup";
import { attemptLogin, checkCredentials } from "@/lib/domains/security/credentials";
import { createTokenFor } from "@/lib/domains/tokens/create-for-principal";
import { TokenCreateInput } from "@/lib/domains/tokens/schemas";
import { toPublicToken } from "@/lib/domains/tokens/serializers";
import { verifyToken } from "@/lib/domains/tokens/service";
import { call, createTestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { createAttemptLimiter } from "./attempt-limiter";
import { createSignInLimiter, LOGIN_BUDGETS, PACE_SECONDS, reserveLoginAttempt } from "./login-limiter";
import type { Principal } from "./principal";
import { SignupInput } from "./schemas";

const email = () => `user-${randomBytes(5).toString("hex")}@Example.com`;

/** The account a sign-up created (fails the test when it emailed a taken address instead). */
async function created(outcome: Promise<SignUpOutcome>) {
  const done = await outcome;
  if (done.status !== "created") throw new Error("the sign-up created no account");
  return done;
}
const randomIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

describe("sign-up", () => {
  it("creates a pro customer and its first user in one go, and the password logs in", async () => {
    const address = email();
    const { customer, user } = await created(
      signUp(SignupInput.parse({ company: "Fresh Co", email: address, password: "a-long-password" }), randomIp()),
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

  it("makes no second account for the same email, leaves no orphan customer, and emails the address instead", async () => {
    const address = email();
    await signUp(SignupInput.parse({ company: "First", email: address, password: "a-long-password" }), randomIp());
    const company = `Second ${randomBytes(4).toString("hex")}`;
    const again = await signUp(
      SignupInput.parse({ company, email: address, password: "another-password" }),
      randomIp(),
    );
    expect(again).toEqual({ status: "email_sent" });
    expect(await db.customer.count({ where: { name: company } })).toBe(0);
    expect(await checkCredentials(address, "another-password")).toBeNull();
    const mail = await db.mailMessage.findMany({ where: { to: address.toLowerCase() } });
    expect(mail.map((m) => [m.kind, m.subject])).toEqual([
      ["account_exists", "You already have a Switchboard account"],
    ]);
  });

  it("rejects short passwords and bad emails with field messages", () => {
    const r = SignupInput.safeParse({ company: "X Co", email: "nope", password: "short" });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("refuses a suspended customer's user", async () => {
    const address = email();
    const { customer } = await created(
      signUp(SignupInput.parse({ company: "Paused", email: address, password: "a-long-password" }), randomIp()),
    );
    await db.customer.update({ where: { id: customer.id }, data: { status: "SUSPENDED" } });
    expect(await checkCredentials(address, "a-long-password")).toBeNull();
  });
});

describe("login rate limit (per IP + email, per IP, per email)", () => {
  it("allows 10 failures, then refuses; another email or IP is unaffected; success clears it", async () => {
    const ip = randomIp();
    const address = email();
    const password = "the-right-password";
    await signUp(SignupInput.parse({ company: "Limited", email: address, password }), randomIp());
    for (let i = 0; i < 10; i++)
      expect(await attemptLogin(ip, address, "wrong")).toEqual({ ok: false, reason: "wrong_credentials" });
    expect(await attemptLogin(ip, address, password)).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(await attemptLogin(ip, email(), "wrong")).toEqual({ ok: false, reason: "wrong_credentials" });
    const fromElsewhere = randomIp();
    expect((await attemptLogin(fromElsewhere, address, password)).ok).toBe(true);
    // A success resets that address's counter for this email.
    for (let i = 0; i < 9; i++) await attemptLogin(fromElsewhere, address, "wrong");
    expect((await attemptLogin(fromElsewhere, address, password)).ok).toBe(true);
  });

  it("reserves before verifying: 31 parallel guesses cannot get the right password through", async () => {
    const ip = randomIp();
    const address = email();
    const password = "the-right-password";
    await signUp(SignupInput.parse({ company: "Parallel", email: address, password }), randomIp());
    const guesses = [...Array.from({ length: 30 }, (_, i) => `wrong-${i}`), password];
    const outcomes = await Promise.all(guesses.map((guess) => attemptLogin(ip, address, guess)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(0);
    expect(outcomes.filter((o) => !o.ok && o.reason === "wrong_credentials")).toHaveLength(10);
    expect(outcomes.at(-1)).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("bounds one client spraying one password over many emails", async () => {
    const ip = randomIp();
    const outcomes = [];
    for (let i = 0; i < 40; i++) outcomes.push(await attemptLogin(ip, email(), "Summer2026!"));
    expect(outcomes.filter((o) => !o.ok && o.reason === "wrong_credentials")).toHaveLength(LOGIN_BUDGETS.ip.points);
    expect(outcomes.at(-1)).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("counts atomically in Redis too", async () => {
    const limiter = createAttemptLimiter({
      budgets: { ip_email: LOGIN_BUDGETS.ip_email },
      redisUrl: "redis://127.0.0.1:6379",
      keyPrefix: `swb_test_${randomBytes(4).toString("hex")}`,
    });
    try {
      const outcomes = await Promise.all(Array.from({ length: 31 }, () => limiter.reserve({ ip_email: "k" })));
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(10);
    } finally {
      await limiter.close();
    }
  });
});

describe("an attacker cannot lock an owner out", () => {
  it("once an email's budget is spent from many addresses, the owner still signs in from an address without failures", async () => {
    const address = email();
    const password = "the-right-password";
    await signUp(SignupInput.parse({ company: "Targeted", email: address, password }), randomIp());
    // 100 guesses from 20 addresses (5 each, under every per-address budget) spend the email's budget.
    const attackers = Array.from({ length: 20 }, randomIp);
    for (const ip of attackers) {
      for (let i = 0; i < LOGIN_BUDGETS.email.points / attackers.length; i++) {
        expect(await reserveLoginAttempt(ip, address)).toEqual({ allowed: true });
      }
    }
    // The owner, from an address that never failed, signs in with the right password.
    const owner = randomIp();
    expect(await attemptLogin(owner, address, password)).toMatchObject({ ok: true });
    expect(await attemptLogin(owner, address, password)).toMatchObject({ ok: true });
  });

  it("slows the addresses that keep guessing: each try sets a pause before the next, doubled every time", async () => {
    const address = email();
    const password = "the-right-password";
    await signUp(SignupInput.parse({ company: "Guessed", email: address, password }), randomIp());
    // One address guesses 5 times, others spend the rest of the email's budget.
    const guesser = randomIp();
    for (let i = 0; i < 5; i++) await reserveLoginAttempt(guesser, address);
    for (let i = 5; i < LOGIN_BUDGETS.email.points; i++) await reserveLoginAttempt(randomIp(), address);
    // A fresh address's first try goes through; its next waits PACE_SECONDS, even with the right password.
    const typo = randomIp();
    expect(await attemptLogin(typo, address, "wrong")).toEqual({ ok: false, reason: "wrong_credentials" });
    const paused = await attemptLogin(typo, address, password);
    expect(paused).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(paused.ok === false && paused.reason === "rate_limited" && paused.retryAfterSeconds).toBeGreaterThan(
      PACE_SECONDS - 5,
    );
    expect(paused.ok === false && paused.reason === "rate_limited" && paused.retryAfterSeconds).toBeLessThanOrEqual(
      PACE_SECONDS,
    );
    // The address that guessed 5 times gets one more try, then waits 2^5 pauses (at most the window).
    expect(await reserveLoginAttempt(guesser, address)).toEqual({ allowed: true });
    const slowed = await reserveLoginAttempt(guesser, address);
    expect(slowed.allowed).toBe(false);
    expect(!slowed.allowed && slowed.retryAfterSeconds).toBeGreaterThan(LOGIN_BUDGETS.email.windowSeconds - 10);
  });

  it("paces in Redis too", async () => {
    const limiter = createSignInLimiter(`test_${randomBytes(4).toString("hex")}`, "redis://127.0.0.1:6379");
    try {
      const address = email();
      for (let i = 0; i < LOGIN_BUDGETS.email.points; i++) await limiter.reserve(randomIp(), address);
      const ip = randomIp();
      expect(await limiter.reserve(ip, address)).toEqual({ allowed: true });
      expect(await limiter.reserve(ip, address)).toMatchObject({ allowed: false });
      await limiter.succeeded(ip, address);
      expect(await limiter.reserve(ip, address)).toEqual({ allowed: true });
    } finally {
      await limiter.close();
    }
  });

  it("keeps the per-address budgets: 10 per address and email, 30 per address", async () => {
    const address = email();
    const ip = randomIp();
    for (let i = 0; i < LOGIN_BUDGETS.ip_email.points; i++) {
      expect(await reserveLoginAttempt(ip, address)).toEqual({ allowed: true });
    }
    expect((await reserveLoginAttempt(ip, address)).allowed).toBe(false);
    for (let i = LOGIN_BUDGETS.ip_email.points + 1; i < LOGIN_BUDGETS.ip.points; i++) {
      expect(await reserveLoginAttempt(ip, email())).toEqual({ allowed: true });
    }
    expect((await reserveLoginAttempt(ip, email())).allowed).toBe(false);
  });
});

describe("sign-up rate limit (per IP)", () => {
  it("refuses the 11th sign-up from one address in an hour; another address may still sign up", async () => {
    const ip = randomIp();
    const input = () => SignupInput.parse({ company: "Burst Co", email: email(), password: "a-long-password" });
    const results = await Promise.all(Array.from({ length: 12 }, () => signUp(input(), ip).catch((e) => e)));
    const refused = results.filter((r) => r instanceof ApiError);
    expect(refused).toHaveLength(2);
    expect((refused[0] as ApiError).code).toBe("RATE_LIMITED");
    expect((await created(signUp(input(), randomIp()))).user.email).toContain("@example.com");
  });
});

describe("dashboard token creation", () => {
  it("issues global and number-scoped tokens that the API accepts, and a revoked one it rejects", async () => {
    const t = await createTestCustomer();
    const p: Principal = memberPrincipal(t.customer.id);
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
    const p: Principal = memberPrincipal(mine.customer.id);
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

  it("issues a restricted token with the checked permissions; the API refuses it elsewhere (docs/tokens.md)", async () => {
    const t = await createTestCustomer();
    const p: Principal = memberPrincipal(t.customer.id);
    const readOnly = await createTokenFor(p, TokenCreateInput.parse({ name: "books", permissions: ["billing"] }));
    expect(toPublicToken({ ...readOnly.record, sender: null }).permissions).toEqual(["billing"]);
    expect((await call("GET", "/api/v3/billing/messages", { token: readOnly.token })).status).toBe(200);
    const send = await call("POST", "/api/v3/send", { token: readOnly.token, body: {} });
    expect(send.status).toBe(403);
    expect(send.body).toMatchObject({
      error_code: "TOKEN_PERMISSION_DENIED",
      details: { permission: "messages.send" },
    });
    // Without a choice: every permission; "restricted" with none checked, or an unknown name: refused.
    expect(TokenCreateInput.parse({ name: "x" }).permissions).toBe("all");
    for (const permissions of [[], ["members"], "some"]) {
      const parsed = TokenCreateInput.safeParse({ name: "x", permissions });
      expect(parsed.success, JSON.stringify(permissions)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["permissions"]);
    }
  });
});
