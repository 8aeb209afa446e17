// Attempt budgets for the dashboard's login and sign-up: fixed windows counted in memory
// (one instance) or in Redis (REDIS_URL, shared by instances). An attempt is reserved
// (counted) BEFORE the expensive or risky work, with rate-limiter-flexible's atomic
// consume(), so parallel requests cannot all pass a read-then-count check.
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

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

const REDIS_READY_WAIT_MS = 1_000;

// Keys hold emails and addresses: stores only ever see their hash.
const hashed = (key: string) => createHash("sha256").update(key).digest("hex");

export function createAttemptLimiter<B extends string>(config: AttemptLimiterConfig<B>): AttemptLimiter<B> {
  let redis: Redis | undefined;
  let ready: Promise<void> | undefined;
  if (config.redisUrl) {
    const client = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // The in-memory insurance limiter counts while Redis is away.
    client.on("error", () => {});
    ready = new Promise((resolve) => {
      const timer = setTimeout(resolve, REDIS_READY_WAIT_MS);
      timer.unref();
      client.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    redis = client;
  }
  const limiters = new Map<B, RateLimiterAbstract>();
  for (const [name, budget] of Object.entries(config.budgets) as [B, Budget][]) {
    const opts = { points: budget.points, duration: budget.windowSeconds, keyPrefix: `${config.keyPrefix}_${name}` };
    const memory = new RateLimiterMemory(opts);
    limiters.set(
      name,
      redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory }) : memory,
    );
  }
  const each = (keys: Partial<Record<B, string>>) =>
    (Object.entries(keys) as [B, string | undefined][]).flatMap(([name, key]) => {
      const limiter = limiters.get(name);
      return limiter && key !== undefined ? [{ limiter, key: hashed(key) }] : [];
    });

  async function waitReady() {
    if (!ready) return;
    await ready;
    ready = undefined;
  }

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

  async function close() {
    if (redis?.status === "ready") await redis.quit().catch(() => {});
    else redis?.disconnect();
  }

  return { reserve, refund, reset, close };
}
