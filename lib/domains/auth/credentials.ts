// Email + password check for the dashboard login (next-auth Credentials provider).
import { db } from "@/lib/db";
import { secondFactorLimiter } from "@/lib/domains/security/limits";
import { useSecondFactor } from "@/lib/domains/security/two-factor";
import { loginSucceeded, reserveLoginAttempt } from "./login-limiter";
import { hashPassword, verifyPassword } from "./password";

export type SessionUser = {
  id: string;
  email: string;
  name: string | null;
  customerId: string;
  /** Two-factor is on: the sign-in needs a code after the password. */
  twoFactor: boolean;
};

// Verifying against a throwaway hash when the email is unknown keeps the timing flat.
let dummyHash: Promise<string> | undefined;

export async function checkCredentials(email: string, password: string): Promise<SessionUser | null> {
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    include: { customer: { select: { status: true } } },
  });
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(await dummyHash, password);
    return null;
  }
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  if (user.customer.status !== "ACTIVE") return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    customerId: user.customerId,
    twoFactor: user.totpEnabledAt !== null,
  };
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
export async function attemptLogin(ip: string, email: string, password: string, code?: string): Promise<LoginOutcome> {
  const gate = await reserveLoginAttempt(ip, email);
  if (!gate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: gate.retryAfterSeconds };
  const user = await checkCredentials(email, password);
  if (!user) return { ok: false, reason: "wrong_credentials" };
  await loginSucceeded(ip, email);
  if (user.twoFactor) {
    if (!code) return { ok: false, reason: "code_required" };
    const codeGate = await secondFactorLimiter().reserve(ip, email);
    if (!codeGate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: codeGate.retryAfterSeconds };
    if (!(await useSecondFactor(db, user.id, code))) return { ok: false, reason: "wrong_code" };
    await secondFactorLimiter().succeeded(ip, email);
  }
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } }).catch(() => {});
  return { ok: true, user };
}
