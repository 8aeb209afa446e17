// Email + password check for the dashboard login (next-auth Credentials provider).
import { db } from "@/lib/db";
import { memberAuditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { loginSucceeded, reserveLoginAttempt } from "@/lib/domains/auth/login-limiter";
import { hashPassword, verifyPassword } from "@/lib/domains/auth/password";
import type { RequestOrigin } from "@/lib/domains/auth/principal";
import { secondFactorLimiter } from "./limits";
import { useSecondFactor } from "./two-factor";

export type SessionUser = {
  id: string;
  email: string;
  name: string | null;
  customerId: string;
  /** Two-factor is on: the sign-in needs a code after the password. */
  twoFactor: boolean;
};

const memberTarget = (email: string) => ({ type: "member", uid: email });

const auditOf = (user: SessionUser, origin: RequestOrigin | undefined) => ({
  ...memberAuditContext(user.customerId, { email: user.email, userId: user.id }, origin),
  target: memberTarget(user.email),
});

/** A completed sign-in: the last sign-in time and its audit entry, together. */
async function signedIn(user: SessionUser, origin: RequestOrigin | undefined, method: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
    await recordAudit(tx, { ...auditOf(user, origin), action: "member.signed_in", details: { method } });
  });
}

// Verifying against a throwaway hash when the email is unknown keeps the timing flat.
let dummyHash: Promise<string> | undefined;

/**
 * `origin`: the sign-in request's address and user agent, for the audit log's
 * member.signed_in and member.sign_in_failed (docs/security.md "Audit log"). An unknown
 * email belongs to no account, so it has no entry.
 */
export async function checkCredentials(
  email: string,
  password: string,
  origin?: RequestOrigin,
): Promise<SessionUser | null> {
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    include: { customer: { select: { status: true } } },
  });
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(await dummyHash, password);
    return null;
  }
  const member = { email: user.email, userId: user.id };
  const entry = { ...memberAuditContext(user.customerId, member, origin), target: memberTarget(user.email) };
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAudit(db, { ...entry, action: "member.sign_in_failed", details: { reason: "wrong_password" } });
    return null;
  }
  if (user.customer.status !== "ACTIVE") return null;
  const found = {
    id: user.id,
    email: user.email,
    name: user.name,
    customerId: user.customerId,
    twoFactor: user.totpEnabledAt !== null,
  };
  // With two-factor on, the sign-in is recorded once the code is accepted (attemptLogin).
  if (!found.twoFactor) await signedIn(found, origin, "password");
  return found;
}

export type LoginOutcome =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "wrong_credentials" }
  /** The password was right; two-factor is on and no code came (the form asks for one). */
  | { ok: false; reason: "code_required" }
  | { ok: false; reason: "wrong_code" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * One login attempt from `ip`: the attempt is reserved first (atomically, so parallel
 * attempts cannot all slip under the limit), then the password is verified; with two-factor
 * on, then the code (a TOTP code or a recovery code), limited like the password by its own
 * counters (docs/sign-in-limits.md "Reusing the limits") and used up when accepted.
 */
export async function attemptLogin(
  ip: string,
  email: string,
  password: string,
  userAgent: string | null = null,
  code?: string,
): Promise<LoginOutcome> {
  const gate = await reserveLoginAttempt(ip, email);
  if (!gate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: gate.retryAfterSeconds };
  const user = await checkCredentials(email, password, { ip, userAgent });
  if (!user) return { ok: false, reason: "wrong_credentials" };
  await loginSucceeded(ip, email);
  if (user.twoFactor) {
    if (!code) return { ok: false, reason: "code_required" };
    const codeGate = await secondFactorLimiter().reserve(ip, email);
    if (!codeGate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: codeGate.retryAfterSeconds };
    if (!(await useSecondFactor(db, user.id, code))) {
      await recordAudit(db, {
        ...auditOf(user, { ip, userAgent }),
        action: "member.sign_in_failed",
        details: { reason: "wrong_code" },
      });
      return { ok: false, reason: "wrong_code" };
    }
    await secondFactorLimiter().succeeded(ip, email);
    await signedIn(user, { ip, userAgent }, "password+code");
  }
  return { ok: true, user };
}
