// Sign-in attempt limits (fixed 15-minute windows, memory or Redis; docs/sign-in-limits.md):
// per IP + email (one client guessing one account) and per IP across emails (one client
// spraying one password over many accounts) refuse once spent. The per-email budget
// (many clients on one account) never locks the owner out: once it is spent, an address
// that has not tried this email in the window still signs in at once, and an address that
// has waits before each further try, twice as long each time (1, 2, 4... minutes, at most
// the window). An
// attempt is reserved before the password is verified, so parallel guesses are bounded by
// the budgets, not by argon2's speed.
//
// Anything verified like a password (a second factor's code) is limited like one: make
// its own limiter with createSignInLimiter("<name>") and call reserve before checking,
// succeeded after a success.
import { env } from "@/lib/core/env";
import { type AttemptLimiter, createAttemptLimiter, type LimitCheck } from "./attempt-limiter";

export type { LimitCheck } from "./attempt-limiter";

const WINDOW_SECONDS = 15 * 60;
export const LOGIN_BUDGETS = {
  ip_email: { points: 10, windowSeconds: WINDOW_SECONDS },
  ip: { points: 30, windowSeconds: WINDOW_SECONDS },
  email: { points: 100, windowSeconds: WINDOW_SECONDS },
} as const;

/** Once an email's budget is spent: the pause after an address's first try at it, doubled after each further one. */
export const PACE_SECONDS = 60;

type LoginBudget = keyof typeof LOGIN_BUDGETS;

export type SignInLimiter = {
  /** Counts one attempt from `ip` at `email`; refused while a budget is spent or the address's pause runs. */
  reserve(ip: string, email: string): Promise<LimitCheck>;
  /**
   * After a success: this IP + email starts afresh (its pause too), and the attempt is
   * given back to the IP's and the email's wider budgets (signing in is no attack on either).
   */
  succeeded(ip: string, email: string): Promise<void>;
  close(): Promise<void>;
};

const keysFor = (ip: string, email: string) => {
  const address = email.trim().toLowerCase();
  return { ip_email: `${ip}|${address}`, ip, email: address };
};

export function createSignInLimiter(name: string, redisUrl = env().REDIS_URL): SignInLimiter {
  const limiter: AttemptLimiter<LoginBudget> = createAttemptLimiter({
    budgets: LOGIN_BUDGETS,
    redisUrl,
    keyPrefix: `swb_${name}`,
  });
  return {
    async reserve(ip, email) {
      const keys = keysFor(ip, email);
      const near = await limiter.reserveEach({ ip_email: keys.ip_email, ip: keys.ip });
      const refused = [near.ip_email, near.ip].filter((c) => c !== undefined && !c.allowed);
      if (refused.length > 0) {
        return { allowed: false, retryAfterSeconds: Math.max(...refused.map((c) => c?.retryAfterSeconds ?? 1)) };
      }
      const wide = await limiter.reserveEach({ email: keys.email });
      if (wide.email?.allowed !== false) return { allowed: true };
      // The email is being guessed at from many addresses. An address that has not tried it
      // in this window gets in; each try sets the pause before the next, doubled every time.
      const earlier = Math.max(0, (near.ip_email?.attempts ?? 1) - 1);
      return limiter.pace(keys.ip_email, Math.min(PACE_SECONDS * 2 ** earlier, WINDOW_SECONDS));
    },
    async succeeded(ip, email) {
      const { ip_email, ...wider } = keysFor(ip, email);
      await limiter.reset({ ip_email });
      await limiter.unpace(ip_email);
      await limiter.refund(wider);
    },
    close: () => limiter.close(),
  };
}

let login: SignInLimiter | undefined;
const shared = () => {
  login ??= createSignInLimiter("login");
  return login;
};

/** Counts one password attempt for this IP and email (see SignInLimiter.reserve). */
export function reserveLoginAttempt(ip: string, email: string): Promise<LimitCheck> {
  return shared().reserve(ip, email);
}

/** After a successful login (see SignInLimiter.succeeded). */
export function loginSucceeded(ip: string, email: string): Promise<void> {
  return shared().succeeded(ip, email);
}
