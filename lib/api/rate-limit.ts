// Fixed-window limits (docs/api/limits.md), one budget per key across v2 and v3. Counters live
// in memory on one instance, in Redis when REDIS_URL is set (shared by instances).
import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { createLimiterStore, type LimiterStoreState } from "@/lib/core/limiter-store";
import { log } from "@/lib/core/log";
import type { LimitClass } from "./route-definition";

export type Policy = "global" | "send_ip" | "send_token" | "reports_ip";

const POLICIES_BY_CLASS: Record<LimitClass, readonly Policy[]> = {
  global: ["global"],
  send: ["global", "send_ip", "send_token"],
  reports: ["reports_ip"],
};

export type RateLimitConfig = {
  limits: Record<Policy, number>;
  windowSeconds: number;
  /** Counters shared through Redis when set; in this process's memory otherwise. */
  redisUrl?: string;
  /** Redis key prefix (tests isolate their counters with their own). */
  keyPrefix?: string;
};

export function rateLimitConfigFromEnv(): RateLimitConfig {
  const e = env();
  return {
    limits: {
      global: e.RATE_LIMIT_GLOBAL,
      send_ip: e.RATE_LIMIT_SEND_IP,
      send_token: e.RATE_LIMIT_SEND_TOKEN,
      reports_ip: e.RATE_LIMIT_REPORTS_IP,
    },
    windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    redisUrl: e.REDIS_URL,
  };
}

export type RateLimitOutcome = { headers: Record<string, string> };

export type RateLimiter = {
  readonly config: RateLimitConfig;
  /**
   * Consumes one point of every window the class counts against. Throws a 429 ApiError
   * (details limit, windowSeconds, retryAfterSeconds, policy) when any window is exhausted.
   */
  consume(cls: LimitClass, clientIp: string, presentedToken: string | undefined): Promise<RateLimitOutcome>;
  /** Where the windows count now (after the first, brief wait for Redis). */
  store(): Promise<LimiterStoreState>;
  close(): Promise<void>;
};

/** One limiter set: an "instance" in the spec's sense. Several share Redis, never memory. */
export function createRateLimiter(config: RateLimitConfig = rateLimitConfigFromEnv()): RateLimiter {
  const { limits, windowSeconds: window } = config;
  let warned = false;
  const store = createLimiterStore(config.redisUrl, {
    onError: (error) => {
      if (!warned) log.warn({ err: error }, "rate limit store unavailable; counting in memory");
      warned = true;
    },
    onReady: () => {
      warned = false;
    },
  });
  const make = (policy: Policy): RateLimiterAbstract =>
    store.limiter({ points: limits[policy], duration: window, keyPrefix: `${config.keyPrefix ?? "swb_rl"}_${policy}` });
  const byPolicy: Record<Policy, RateLimiterAbstract> = {
    global: make("global"),
    send_ip: make("send_ip"),
    send_token: make("send_token"),
    reports_ip: make("reports_ip"),
  };

  async function consume(cls: LimitClass, clientIp: string, presentedToken: string | undefined) {
    await store.waitReady();
    // Tokens are counted by hash so no store ever holds one.
    const tokenKey = presentedToken ? createHash("sha256").update(presentedToken).digest("hex") : `ip:${clientIp}`;
    let tightest: { policy: Policy; res: RateLimiterRes } | undefined;
    for (const policy of POLICIES_BY_CLASS[cls]) {
      const key = policy === "send_token" ? tokenKey : clientIp;
      let res: RateLimiterRes;
      try {
        res = await byPolicy[policy].consume(key, 1);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new ApiError(
          "RATE_LIMITED",
          `Rate limit exceeded (${limits[policy]} requests per ${window} seconds); retry after ${retryAfterSeconds} s`,
          { limit: limits[policy], windowSeconds: window, retryAfterSeconds, policy },
          { "Retry-After": String(retryAfterSeconds), ...headersFor(limits[policy], 0, rejection.msBeforeNext) },
        );
      }
      if (!tightest || res.remainingPoints < tightest.res.remainingPoints) tightest = { policy, res };
    }
    if (!tightest) return { headers: {} };
    return { headers: headersFor(limits[tightest.policy], tightest.res.remainingPoints, tightest.res.msBeforeNext) };
  }

  async function storeState() {
    await store.waitReady();
    return store.state();
  }

  return { config, consume, store: storeState, close: store.close };
}

function headersFor(limit: number, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(Math.max(0, remaining)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(msBeforeNext / 1000))),
  };
}

// The process-wide limiter, built from the environment on first use.
let shared: RateLimiter | undefined;

/** Tests change the limits through the environment; this drops the counters. */
export async function resetRateLimiters(): Promise<void> {
  const previous = shared;
  shared = undefined;
  await previous?.close();
}

/** Where this process's rate-limit windows count (its health check says so, docs/deployment.md). */
export function rateLimitStore(): Promise<LimiterStoreState> {
  shared ??= createRateLimiter();
  return shared.store();
}

export function consumeRateLimits(
  cls: LimitClass,
  clientIp: string,
  presentedToken: string | undefined,
): Promise<RateLimitOutcome> {
  shared ??= createRateLimiter();
  return shared.consume(cls, clientIp, presentedToken);
}
