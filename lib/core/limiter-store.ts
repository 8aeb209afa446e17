// Where fixed-window counters live: in this process's memory (one instance), or in Redis
// (shared by instances) with an in-memory insurance limiter that counts while Redis is away.
// Used by the API's rate limits (lib/api/rate-limit.ts) and the dashboard's attempt budgets
// (lib/domains/auth/attempt-limiter.ts).
import { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";

export type LimiterStore = {
  /** One fixed-window counter set over this store. */
  limiter(opts: { points: number; duration: number; keyPrefix: string }): RateLimiterAbstract;
  /** Waits (briefly, the first time only) for the Redis connection before counting. */
  waitReady(): Promise<void>;
  /** Where counts go now: memory (no Redis configured), redis, or memory because Redis is away. */
  state(): LimiterStoreState;
  close(): Promise<void>;
};

export type LimiterStoreState = "memory" | "redis" | "redis-unavailable";

const REDIS_READY_WAIT_MS = 1_000;

export function createLimiterStore(
  redisUrl: string | undefined,
  hooks: { onError?: (error: Error) => void; onReady?: () => void } = {},
): LimiterStore {
  let redis: Redis | undefined;
  let ready: Promise<void> | undefined;
  if (redisUrl) {
    const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // The insurance limiter takes over while Redis is away; the hook may say so.
    client.on("error", (error: Error) => hooks.onError?.(error));
    if (hooks.onReady) client.on("ready", hooks.onReady);
    // Commands are not queued while connecting: the first counts wait for the connection
    // (briefly) instead of silently counting in memory.
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

  function limiter(opts: { points: number; duration: number; keyPrefix: string }): RateLimiterAbstract {
    const memory = new RateLimiterMemory(opts);
    return redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory }) : memory;
  }

  async function waitReady() {
    if (!ready) return;
    await ready;
    ready = undefined;
  }

  async function close() {
    if (redis?.status === "ready") await redis.quit().catch(() => {});
    else redis?.disconnect();
  }

  function state(): LimiterStoreState {
    if (!redis) return "memory";
    return redis.status === "ready" ? "redis" : "redis-unavailable";
  }

  return { limiter, waitReady, state, close };
}
