// Email + password check for the dashboard login (next-auth Credentials provider).
import { db } from "@/lib/db";
import { loginSucceeded, reserveLoginAttempt } from "./login-limiter";
import { hashPassword, verifyPassword } from "./password";

export type SessionUser = { id: string; email: string; name: string | null; customerId: string };

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
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } }).catch(() => {});
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
export async function attemptLogin(ip: string, email: string, password: string): Promise<LoginOutcome> {
  const gate = await reserveLoginAttempt(ip, email);
  if (!gate.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: gate.retryAfterSeconds };
  const user = await checkCredentials(email, password);
  if (!user) return { ok: false, reason: "wrong_credentials" };
  await loginSucceeded(ip, email);
  return { ok: true, user };
}
