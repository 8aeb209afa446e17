// Email + password check for the dashboard login (next-auth Credentials provider).
import { db } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { loginSucceeded, reserveLoginAttempt } from "./login-limiter";
import { hashPassword, verifyPassword } from "./password";
import type { RequestOrigin } from "./principal";

export type SessionUser = { id: string; email: string; name: string | null; customerId: string };

const memberTarget = (email: string) => ({ type: "member", uid: email });

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
  const entry = { ...auditContext({ customerId: user.customerId, member, origin }), target: memberTarget(user.email) };
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAudit(db, { ...entry, action: "member.sign_in_failed", details: { reason: "wrong_password" } });
    return null;
  }
  if (user.customer.status !== "ACTIVE") return null;
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
    await recordAudit(tx, { ...entry, action: "member.signed_in", details: { method: "password" } });
  });
  return { id: user.id, email: user.email, name: user.name, customerId: user.customerId };
}

export type LoginOutcome =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "wrong_credentials" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * One login attempt from `ip`: the attempt is reserved first (atomically, so parallel
 * attempts cannot all slip under the limit), then the password is verified.
 */
export async function attemptLogin(
  ip: string,
  email: string,
  password: string,
  userAgent: string | null = null,
): Promise<LoginOutcome> {
  const gate = await reserveLoginAttempt(ip, email);
  if (!gate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: gate.retryAfterSeconds };
  const user = await checkCredentials(email, password, { ip, userAgent });
  if (!user) return { ok: false, reason: "wrong_credentials" };
  await loginSucceeded(ip, email);
  return { ok: true, user };
}
