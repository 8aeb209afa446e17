// Limits of the account-security checks (docs/security.md, docs/sign-in-limits.md): the
// second factor is limited like a password (its own sign-in limiter); reset requests per
// address and per email, counted whether or not the email has an account (so a refusal
// says nothing about it either).
import { env } from "@/lib/core/env";
import { createAttemptLimiter } from "@/lib/domains/auth/attempt-limiter";
import { createSignInLimiter, type LimitCheck, type SignInLimiter } from "@/lib/domains/auth/login-limiter";

export const RESET_BUDGETS = {
  ip: { points: 20, windowSeconds: 3600 },
  email: { points: 5, windowSeconds: 3600 },
} as const;

let secondFactor: SignInLimiter | undefined;
/** The two-factor code's limiter (TOTP and recovery codes share it). */
export const secondFactorLimiter = (): SignInLimiter => {
  secondFactor ??= createSignInLimiter("second_factor");
  return secondFactor;
};

let reset: ReturnType<typeof createAttemptLimiter<keyof typeof RESET_BUDGETS>> | undefined;
/** Counts one reset request from `ip` for `email` (refused once either budget of the hour is spent). */
export function reserveResetRequest(ip: string, email: string): Promise<LimitCheck> {
  reset ??= createAttemptLimiter({ budgets: RESET_BUDGETS, keyPrefix: "swb_reset", redisUrl: env().REDIS_URL });
  return reset.reserve({ ip, email: email.trim().toLowerCase() });
}
