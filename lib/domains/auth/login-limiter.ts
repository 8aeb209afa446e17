// Login attempt budgets (fixed 15-minute windows, memory or Redis): per IP + email, per IP
// across emails (one client spraying one password over many accounts) and per email
// across IPs (many clients on one account). An attempt is reserved before the password
// is verified, so parallel guesses are bounded by the budget, not by argon2's speed.
import { env } from "@/lib/core/env";
import { type AttemptLimiter, createAttemptLimiter, type LimitCheck } from "./attempt-limiter";

export type { LimitCheck } from "./attempt-limiter";

const WINDOW_SECONDS = 15 * 60;
export const LOGIN_BUDGETS = {
  ip_email: { points: 10, windowSeconds: WINDOW_SECONDS },
  ip: { points: 30, windowSeconds: WINDOW_SECONDS },
  email: { points: 100, windowSeconds: WINDOW_SECONDS },
} as const;

type LoginBudget = keyof typeof LOGIN_BUDGETS;

let limiter: AttemptLimiter<LoginBudget> | undefined;

const keysFor = (ip: string, email: string) => {
  const address = email.trim().toLowerCase();
  return { ip_email: `${ip}|${address}`, ip, email: address };
};

function shared(): AttemptLimiter<LoginBudget> {
  limiter ??= createAttemptLimiter({ budgets: LOGIN_BUDGETS, redisUrl: env().REDIS_URL, keyPrefix: "swb_login" });
  return limiter;
}

/** Counts one attempt for this IP and email; refused once any of its budgets is spent. */
export function reserveLoginAttempt(ip: string, email: string): Promise<LimitCheck> {
  return shared().reserve(keysFor(ip, email));
}

/**
 * After a successful login: this IP + email starts afresh, and the attempt is given back
 * to the IP's and the email's wider budgets (a user signing in is no attack on either).
 */
export async function loginSucceeded(ip: string, email: string): Promise<void> {
  const { ip_email, ...wider } = keysFor(ip, email);
  await shared().reset({ ip_email });
  await shared().refund(wider);
}
