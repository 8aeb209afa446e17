// Attempt budgets for the dashboard's login and sign-up: fixed windows counted in memory
// (one instance) or in Redis (REDIS_URL, shared by instances). An attempt is reserved
// (counted) BEFORE the expensive or risky work, with rate-limiter-flexible's atomic
// consume(), so parallel requests cannot all pass a read-then-count check.
import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { createLimiterStore } from "@/lib/core/limiter-store";

export type Budget = { points: number; windowSeconds: number };

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type AttemptLimiterConfig<B extends string> = {
  budgets: Record<B, Budget>;
  /** Counters shared through Redis when set; in this process's memory otherwise. */
  redisUrl?: string;
  keyPrefix: string;
};

export type AttemptLimiter<B extends string> = {
  /** Counts one attempt against every named budget; refused when any is spent. */
  reserve(keys: Partial<Record<B, string>>): Promise<LimitCheck>;
  /** Gives one reserved attempt back (e.g. a successful login). */
  refund(keys: Partial<Record<B, string>>): Promise<void>;
  /** Forgets a key's counter altogether. */
  reset(keys: Partial<Record<B, string>>): Promise<void>;
  close(): Promise<void>;
};

// Keys hold emails and addresses: stores only ever see their hash.
const hashed = (key: string) => createHash("sha256").update(key).digest("hex");

export function createAttemptLimiter<B extends string>(config: AttemptLimiterConfig<B>): AttemptLimiter<B> {
  const store = createLimiterStore(config.redisUrl);
  const limiters = new Map<B, RateLimiterAbstract>();
  for (const [name, budget] of Object.entries(config.budgets) as [B, Budget][]) {
    limiters.set(
      name,
      store.limiter({
        points: budget.points,
        duration: budget.windowSeconds,
        keyPrefix: `${config.keyPrefix}_${name}`,
      }),
    );
  }
  const each = (keys: Partial<Record<B, string>>) =>
    (Object.entries(keys) as [B, string | undefined][]).flatMap(([name, key]) => {
      const limiter = limiters.get(name);
      return limiter && key !== undefined ? [{ limiter, key: hashed(key) }] : [];
    });

  const waitReady = store.waitReady;

  async function reserve(keys: Partial<Record<B, string>>): Promise<LimitCheck> {
    await waitReady();
    // Every budget is charged (a refused attempt still counts), so spraying over many
    // emails from one address spends the address's budget too.
    const outcomes = await Promise.allSettled(each(keys).map(({ limiter, key }) => limiter.consume(key, 1)));
    let retryAfterMs = 0;
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") continue;
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
      retryAfterMs = Math.max(retryAfterMs, outcome.reason.msBeforeNext);
    }
    if (outcomes.every((o) => o.status === "fulfilled")) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  async function refund(keys: Partial<Record<B, string>>) {
    await waitReady();
    await Promise.allSettled(each(keys).map(({ limiter, key }) => limiter.reward(key, 1)));
  }

  async function reset(keys: Partial<Record<B, string>>) {
    await waitReady();
    await Promise.allSettled(each(keys).map(({ limiter, key }) => limiter.delete(key)));
  }

  return { reserve, refund, reset, close: store.close };
}
