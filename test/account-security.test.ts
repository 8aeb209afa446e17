// Account security through the services and the public reset action (docs/security.md):
// the reset request answers the same for any email, its link works once and ends every
// session, a password change needs the current one, two-factor sign-in (TOTP and recovery
// codes, each once), sessions ended by the member or an admin, and the notices emailed.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, signedClientAddress } from "@/lib/core/client-ip";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { listMail } from "@/lib/domains/mail/outbox";
import { attemptLogin, checkCredentials } from "@/lib/domains/security/credentials";
import { changePassword, resetPassword } from "@/lib/domains/security/passwords";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { endMemberSessions, endMyOtherSessions, endMySession, listMySessions } from "@/lib/domains/security/sessions";
import { totpCode } from "@/lib/domains/security/totp";
import {
  beginTwoFactorSetup,
  confirmTwoFactor,
  disableTwoFactor,
  setRequireTwoFactor,
} from "@/lib/domains/security/two-factor";
import { createTestCustomer, type TestCustomer } from "./factory";
import { createMemberOf, latestLinkTo, signedInSession, type TestMember, tokenOf } from "./member-fixtures";
import { nextRequest } from "./next-request-double";

// The server actions' request, as Next hands it: to dash.test, from an address the front
// server signed (lib/core/client-ip.ts). An address of this file's own: reset requests are
// limited per address in the process's memory, and without one every file's requests would
// count as one unknown client's (test/client-address-limits.test.ts spends that budget).
nextRequest.headers = new Headers({
  host: "dash.test",
  [CLIENT_ADDRESS_HEADER]: signedClientAddress("192.0.2.131") ?? "",
});

const { requestResetAction } = await import("@/app/(auth)/forgot-password/actions");
const { resetPasswordAction } = await import("@/app/(auth)/reset-password/[token]/actions");

let t: TestCustomer;
beforeAll(async () => {
  t = await createTestCustomer();
});

const asPrincipal = async (session: { userId: string; customerId: string; sessionId: string }) => {
  const p = await principalForSession(session);
  if (!p) throw new Error("no principal for this session");
  return p;
};
const mailsTo = async (to: string) => listMail({ limit: 20, to });
const unusedEmail = () => `nobody-${randomBytes(5).toString("hex")}@example.test`;
// A new address per attempt. Random ones collided (CI N, 2026-12-03): the code limit's loop drew the
// address of an earlier wrong code for the same email, its budget already one down.
let lastHost = 100;
const ip = () => `198.51.100.${++lastHost}`;

describe("password reset", () => {
  it("answers an unknown email exactly as a member's, and emails only the member", async () => {
    const m = await createMemberOf(t.customer.id, "developer");
    const nobody = unusedEmail();
    const known = await requestResetAction({ email: m.email });
    const unknown = await requestResetAction({ email: nobody });
    expect(known.ok).toBe(true);
    expect(unknown).toEqual(known);
    expect(JSON.stringify(unknown)).not.toContain(nobody);
    expect((await mailsTo(m.email)).map((x) => x.kind)).toContain("password_reset");
    expect(await mailsTo(nobody)).toEqual([]);
  });

  it("the link works once, ends every session, and the new password signs in", async () => {
    const m = await createMemberOf(t.customer.id, "agent");
    const other = await signedInSession(m.userId, t.customer.id);
    await requestResetAction({ email: m.email });
    const token = tokenOf(await latestLinkTo(m.email));
    const stored = await db.passwordReset.findFirstOrThrow({ where: { userId: m.userId, usedAt: null } });
    expect(stored.tokenHash).not.toContain(token);

    const done = await resetPasswordAction({ token, password: "a brand new password" });
    expect(done).toEqual({ ok: true, data: { email: m.email } });
    expect(await principalForSession(m.session)).toBeNull();
    expect(await principalForSession(other)).toBeNull();
    expect(await checkCredentials(m.email, "a brand new password")).not.toBeNull();
    expect(await checkCredentials(m.email, m.password)).toBeNull();
    expect((await mailsTo(m.email))[0]?.subject).toBe("Your Switchboard password was changed");

    const again = await resetPasswordAction({ token, password: "yet another password" });
    expect(again).toMatchObject({ ok: false });
    expect(await checkCredentials(m.email, "yet another password")).toBeNull();
  });

  it("a link is refused after its hour, and replaced by a newer request", async () => {
    const m = await createMemberOf(t.customer.id, "billing");
    await requestResetAction({ email: m.email });
    const first = tokenOf(await latestLinkTo(m.email));
    const afterTheHour = Date.now() + 3600_000 + 1000;
    await expect(resetPassword(first, "a password too late", null, afterTheHour)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await requestResetAction({ email: m.email });
    const second = tokenOf(await latestLinkTo(m.email));
    expect(second).not.toBe(first);
    await expect(resetPassword(first, "an older link's password")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resetPassword(second, "the newest link works")).resolves.toEqual({ email: m.email });
  });

  it("is limited per email, counted the same for an email without an account", async () => {
    const { requestPasswordReset } = await import("@/lib/domains/security/passwords");
    const { RESET_BUDGETS } = await import("@/lib/domains/security/limits");
    for (const email of [unusedEmail(), (await createMemberOf(t.customer.id, "agent")).email]) {
      for (let i = 0; i < RESET_BUDGETS.email.points; i++) await requestPasswordReset(ip(), email);
      await expect(requestPasswordReset(ip(), email)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    }
  });
});

describe("changing a password", () => {
  it("needs the current password, then ends the member's other sessions but not this one", async () => {
    const m = await createMemberOf(t.customer.id, "developer");
    const other = await signedInSession(m.userId, t.customer.id);
    const p = await asPrincipal(m.session);
    await expect(changePassword(p, "not my password", "a new long password")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await principalForSession(other)).not.toBeNull();
    await changePassword(p, m.password, "a new long password");
    expect(await principalForSession(other)).toBeNull();
    expect(await principalForSession(m.session)).not.toBeNull();
    expect(await checkCredentials(m.email, "a new long password")).not.toBeNull();
  });
});

describe("turning two-factor on", () => {
  it("ends the member's other sessions (opened with the password alone) but not this one", async () => {
    const m = await createMemberOf(t.customer.id, "developer");
    const other = await signedInSession(m.userId, t.customer.id);
    const p = await asPrincipal(m.session);
    const { secret } = await beginTwoFactorSetup(p);
    // Only confirming the setup turns it on: the other session still reads.
    expect(await principalForSession(other)).not.toBeNull();
    await confirmTwoFactor(p, totpCode(secret, Date.now() - 30_000));
    expect(await principalForSession(other)).toBeNull();
    expect(await principalForSession(m.session)).not.toBeNull();
    expect(await db.userSession.findUniqueOrThrow({ where: { id: other.sessionId } })).toMatchObject({
      endedReason: "two_factor_enabled",
    });
    const [entry] = await db.auditEvent.findMany({ where: { action: "member.2fa_enabled", targetUid: m.email } });
    expect(entry?.details).toEqual({ sessionsEnded: 1 });
  });
});

describe("two-factor sign-in", () => {
  let m: TestMember;
  let p: Principal;
  let secret: string;
  let recovery: string[];
  const T0 = Date.now();

  beforeAll(async () => {
    m = await createMemberOf(t.customer.id, "admin");
    p = await asPrincipal(m.session);
    secret = (await beginTwoFactorSetup(p)).secret;
    const user = await db.user.findUniqueOrThrow({ where: { id: m.userId } });
    expect(user.totpSecret).not.toContain(secret); // encrypted at rest
    await expect(confirmTwoFactor(p, "000000", T0)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    // The first code is the one of 30 s ago: the sign-in below uses the current step's.
    recovery = await confirmTwoFactor(p, totpCode(secret, T0 - 30_000), T0);
    expect(recovery).toHaveLength(10);
    const stored = await db.recoveryCode.findMany({ where: { userId: m.userId } });
    expect(stored).toHaveLength(10);
    for (const code of recovery) expect(stored.map((s) => s.codeHash)).not.toContain(code);
  });

  it("asks for the code after the right password, never after a wrong one", async () => {
    expect(await attemptLogin(ip(), m.email, "wrong password")).toEqual({ ok: false, reason: "wrong_credentials" });
    expect(await attemptLogin(ip(), m.email, m.password)).toEqual({ ok: false, reason: "code_required" });
    expect(await attemptLogin(ip(), m.email, m.password, null, "123456")).toEqual({ ok: false, reason: "wrong_code" });
  });

  it("a TOTP code signs in once: the same code again is refused", async () => {
    const code = totpCode(secret);
    expect(await attemptLogin(ip(), m.email, m.password, null, code)).toMatchObject({ ok: true });
    expect(await attemptLogin(ip(), m.email, m.password, null, code)).toEqual({ ok: false, reason: "wrong_code" });
  });

  it("a recovery code signs in once, with or without its dash", async () => {
    const [code = ""] = recovery;
    expect(await attemptLogin(ip(), m.email, m.password, null, code.replace("-", "").toUpperCase())).toMatchObject({
      ok: true,
    });
    expect(await attemptLogin(ip(), m.email, m.password, null, code)).toEqual({ ok: false, reason: "wrong_code" });
  });

  it("codes are limited like passwords", async () => {
    const from = ip();
    // The per address + email budget (docs/sign-in-limits.md): 10 wrong codes, then refused.
    for (let i = 0; i < 10; i++) {
      expect(await attemptLogin(from, m.email, m.password, null, "000000")).toEqual({
        ok: false,
        reason: "wrong_code",
      });
    }
    const next = totpCode(secret, Date.now() + 30_000);
    expect(await attemptLogin(from, m.email, m.password, null, next)).toMatchObject({
      ok: false,
      reason: "rate_limited",
    });
  });

  it("turning it off needs a current code, and emails the member", async () => {
    await expect(disableTwoFactor(p, "000000")).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await disableTwoFactor(p, recovery[1] ?? "");
    expect(await attemptLogin(ip(), m.email, m.password)).toMatchObject({ ok: true });
    expect((await mailsTo(m.email))[0]?.subject).toBe("Two-factor authentication was turned off");
    expect(await db.recoveryCode.count({ where: { userId: m.userId } })).toBe(0);
  });

  it("only an owner requires it of every member", async () => {
    await expect(setRequireTwoFactor(p, true)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const owner = await createMemberOf(t.customer.id, "owner");
    await setRequireTwoFactor(await asPrincipal(owner.session), true);
    expect((await asPrincipal(m.session)).twoFactorSetupRequired).toBe(true);
    await setRequireTwoFactor(await asPrincipal(owner.session), false);
    expect((await asPrincipal(m.session)).twoFactorSetupRequired).toBe(false);
  });
});

describe("sessions", () => {
  it("a member lists theirs, ends one, then all others", async () => {
    const m = await createMemberOf(t.customer.id, "agent");
    const b = await signedInSession(m.userId, t.customer.id, "Mozilla/5.0 (Windows NT 10.0) Firefox/133.0");
    const c = await signedInSession(m.userId, t.customer.id);
    const p = await asPrincipal(m.session);
    const listed = await listMySessions(p);
    expect(listed.map((s) => s.id).sort()).toEqual([m.session.sessionId, b.sessionId, c.sessionId].sort());
    expect(listed[0]).toMatchObject({ id: m.session.sessionId, current: true });
    await endMySession(p, b.sessionId);
    expect(await principalForSession(b)).toBeNull();
    expect(await endMyOtherSessions(p)).toBe(1);
    expect(await principalForSession(c)).toBeNull();
    expect((await listMySessions(p)).map((s) => s.id)).toEqual([m.session.sessionId]);
  });

  it("a member cannot end another member's session by its id", async () => {
    const a = await createMemberOf(t.customer.id, "agent");
    const b = await createMemberOf(t.customer.id, "agent");
    await expect(endMySession(await asPrincipal(a.session), b.session.sessionId)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await principalForSession(b.session)).not.toBeNull();
  });

  it("an admin ends every session of a member, but not an owner's", async () => {
    const admin = await createMemberOf(t.customer.id, "admin");
    const dev = await createMemberOf(t.customer.id, "developer");
    const owner = await createMemberOf(t.customer.id, "owner");
    const ap = await asPrincipal(admin.session);
    expect(await endMemberSessions(ap, dev.userId)).toBe(1);
    expect(await principalForSession(dev.session)).toBeNull();
    await expect(endMemberSessions(ap, owner.userId)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(await principalForSession(owner.session)).not.toBeNull();
    const other = await createTestCustomer();
    const stranger = await createMemberOf(other.customer.id, "agent");
    await expect(endMemberSessions(ap, stranger.userId)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a sign-in from a new device emails a notice; a known device does not", async () => {
    const m = await createMemberOf(t.customer.id, "agent");
    const before = (await mailsTo(m.email)).length;
    await signedInSession(m.userId, t.customer.id, null);
    expect((await mailsTo(m.email)).length).toBe(before);
    await signedInSession(
      m.userId,
      t.customer.id,
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
    );
    const [newest] = await mailsTo(m.email);
    expect(newest).toMatchObject({ kind: "security_notice", subject: "New sign-in to your Switchboard account" });
  });
});

describe("the audit log", () => {
  it("records resets, changes, two-factor and ended sessions with the member as target", async () => {
    const c = await createTestCustomer();
    const m = await createMemberOf(c.customer.id, "owner");
    const p = await asPrincipal(m.session);
    await signedInSession(m.userId, c.customer.id);
    await endMyOtherSessions(p);
    await changePassword(p, m.password, "changed password 1");
    const { secret } = await beginTwoFactorSetup(p);
    await confirmTwoFactor(p, totpCode(secret, Date.now() - 30_000));
    await disableTwoFactor(p, totpCode(secret));
    await requestResetAction({ email: m.email });
    await resetPassword(tokenOf(await latestLinkTo(m.email)), "reset password 12");
    const rows = await db.auditEvent.findMany({ where: { customerId: c.customer.id }, orderBy: { createdAt: "asc" } });
    const mine = [
      "session.revoked",
      "member.password_changed",
      "member.2fa_enabled",
      "member.2fa_disabled",
      "member.password_reset",
    ];
    const recorded = rows.filter((r) => mine.includes(r.action));
    expect(recorded.map((r) => r.action)).toEqual(mine);
    for (const row of recorded) {
      expect(row).toMatchObject({ targetType: "member", targetUid: m.email, actorEmail: m.email });
      expect(JSON.stringify(row.details)).not.toContain(secret);
    }
  });
});
