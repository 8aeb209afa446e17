// Login attempts per IP + email: fixed window in memory (one instance) or Redis.
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "@/lib/env";

const ATTEMPTS = 10;
const WINDOW_SECONDS = 15 * 60;

let limiter: RateLimiterAbstract | undefined;

function build(): RateLimiterAbstract {
  const opts = { points: ATTEMPTS, duration: WINDOW_SECONDS, keyPrefix: "swb_login" };
  const memory = new RateLimiterMemory(opts);
  const url = env().REDIS_URL;
  if (!url) return memory;
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  return new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory });
}

const keyFor = (ip: string, email: string) =>
  createHash("sha256").update(`${ip}|${email.trim().toLowerCase()}`).digest("hex");

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one failed attempt; refuses once the window's budget is spent. */
export async function recordFailedLogin(ip: string, email: string): Promise<LimitCheck> {
  limiter ??= build();
  try {
    await limiter.consume(keyFor(ip, email), 1);
    return { allowed: true };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  }
}

/** Whether this IP + email may try again now (does not count an attempt). */
export async function checkLogin(ip: string, email: string): Promise<LimitCheck> {
  limiter ??= build();
  const res = await limiter.get(keyFor(ip, email));
  if (res && res.consumedPoints >= ATTEMPTS) {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }
  return { allowed: true };
}

export async function clearLogin(ip: string, email: string): Promise<void> {
  limiter ??= build();
  await limiter.delete(keyFor(ip, email)).catch(() => {});
}
