// Attempt budgets for the dashboard's login and sign-up: fixed windows counted in memory
// (one instance) or in Redis (REDIS_URL, shared by instances). An attempt is reserved
// (counted) BEFORE the expensive or risky work, with rate-limiter-flexible's atomic
// consume(), so parallel requests cannot all pass a read-then-count check.
import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { createLimiterStore } from "@/lib/core/limiter-store";

export type Budget = { points: number; windowSeconds: number };

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One budget's answer to a reserved attempt: `attempts` counts this one and the earlier ones in the window. */
export type BudgetCheck = { allowed: boolean; attempts: number; retryAfterSeconds: number };

export type AttemptLimiterConfig<B extends string> = {
  budgets: Record<B, Budget>;
  /** Counters shared through Redis when set; in this process's memory otherwise. */
  redisUrl?: string;
  keyPrefix: string;
};

export type AttemptLimiter<B extends string> = {
  /** Counts one attempt against every named budget; refused when any is spent. */
  reserve(keys: Partial<Record<B, string>>): Promise<LimitCheck>;
  /** Counts one attempt against every named budget; each budget's own answer. */
  reserveEach(keys: Partial<Record<B, string>>): Promise<Partial<Record<B, BudgetCheck>>>;
  /**
   * One attempt per `seconds` for this key, the first at once: refused while the pause set by
   * the previous allowed attempt runs (the caller grows `seconds` to slow a guesser down).
   */
  pace(key: string, seconds: number): Promise<LimitCheck>;
  /** Gives one reserved attempt back (e.g. a successful login). */
  refund(keys: Partial<Record<B, string>>): Promise<void>;
  /** Forgets a key's counter altogether. */
  reset(keys: Partial<Record<B, string>>): Promise<void>;
  /** Ends the pause of a paced key. */
  unpace(key: string): Promise<void>;
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
      return limiter && key !== undefined ? [{ name, limiter, key: hashed(key) }] : [];
    });

  const waitReady = store.waitReady;

  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  async function reserveEach(keys: Partial<Record<B, string>>): Promise<Partial<Record<B, BudgetCheck>>> {
    await waitReady();
    // Every budget is charged (a refused attempt still counts), so spraying over many
    // emails from one address spends the address's budget too.
    const charged = each(keys);
    const outcomes = await Promise.allSettled(charged.map(({ limiter, key }) => limiter.consume(key, 1)));
    const checks: Partial<Record<B, BudgetCheck>> = {};
    outcomes.forEach((outcome, i) => {
      const name = charged[i]?.name;
      if (name === undefined) return;
      const res = outcome.status === "fulfilled" ? outcome.value : outcome.reason;
      if (!(res instanceof RateLimiterRes)) throw res;
      checks[name] = {
        allowed: outcome.status === "fulfilled",
        attempts: res.consumedPoints,
        retryAfterSeconds: seconds(res.msBeforeNext),
      };
    });
    return checks;
  }

  async function reserve(keys: Partial<Record<B, string>>): Promise<LimitCheck> {
    const refused = Object.values<BudgetCheck | undefined>(await reserveEach(keys)).filter((c) => c && !c.allowed);
    if (refused.length === 0) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(...refused.map((c) => c?.retryAfterSeconds ?? 1)) };
  }

  const pacer = store.limiter({ points: 1, duration: 60, keyPrefix: `${config.keyPrefix}_pace` });

  async function pace(key: string, pauseSeconds: number): Promise<LimitCheck> {
    await waitReady();
    try {
      // The key lives `pauseSeconds` from this allowed attempt: the next one is refused until then.
      await pacer.consume(hashed(key), 1, { customDuration: Math.max(1, Math.round(pauseSeconds)) });
      return { allowed: true };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { allowed: false, retryAfterSeconds: seconds(error.msBeforeNext) };
    }
  }

  async function unpace(key: string) {
    await waitReady();
    await pacer.delete(hashed(key)).catch(() => {});
  }

  async function refund(keys: Partial<Record<B, string>>) {
    await waitReady();
    await Promise.allSettled(each(keys).map(({ limiter, key }) => limiter.reward(key, 1)));
  }

  async function reset(keys: Partial<Record<B, string>>) {
    await waitReady();
    await Promise.allSettled(each(keys).map(({ limiter, key }) => limiter.delete(key)));
  }

  return { reserve, reserveEach, pace, refund, reset, unpace, close: store.close };
}
