// The per-sender pacer in Redis (REDIS_URL set: docs/broadcasts.md "Throughput"): the same
// timeline and the same rule as the PostgreSQL store (rate-bucket.ts, pacing.ts reserve()),
// one Lua script per take, so the read and the move of `nextAt` are atomic across every
// worker and instance. Times are the callers' clocks (ms since the epoch); a key expires a
// minute after its last slot.
import { Redis } from "ioredis";
import { AHEAD_MS, OTHERS_SEEN_MS, type Reservation } from "./pacing";

// Numbers are written with string.format: Lua's tostring keeps 14 digits, not the milliseconds' fractions.
const TAKE = `
local h = redis.call('HMGET', KEYS[1], 'n', 'o')
local nextAt, otherAt = tonumber(h[1] or '0'), tonumber(h[2] or '0')
local now, want, spacing, shared, floor = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local seen, ahead = tonumber(ARGV[6]), tonumber(ARGV[7])
if shared > 0 and otherAt > now - seen then spacing = shared end
local base = math.max(nextAt, floor)
local first = math.max(base, now)
local granted = math.max(0, math.min(want, math.ceil((now + ahead - first) / spacing)))
local after = base
if granted > 0 then after = first + granted * spacing end
redis.call('HSET', KEYS[1], 'n', string.format('%.3f', after))
redis.call('PEXPIRE', KEYS[1], math.max(1000, math.ceil(after - now)) + 60000)
return {granted, string.format('%.3f', first), string.format('%.6f', spacing), string.format('%.3f', after)}`;

const OTHER = `
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local now, spacing = tonumber(ARGV[1]), tonumber(ARGV[2])
local after = math.max(nextAt, now) + spacing
redis.call('HSET', KEYS[1], 'n', string.format('%.3f', after), 'o', string.format('%.3f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(after - now) + 60000)
return 1`;

const HOLD = `
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local at = tonumber(ARGV[1])
if at > nextAt then
  redis.call('HSET', KEYS[1], 'n', string.format('%.3f', at))
  redis.call('PEXPIRE', KEYS[1], math.max(1000, math.ceil(at - tonumber(ARGV[2]))) + 60000)
end
return 1`;

export type TakeArgs = {
  now: number;
  want: number;
  spacingMs: number;
  /** The spacing while other sends of the key were seen (a broadcast's share), or 0. */
  sharedSpacingMs: number;
  /** No slot before this (a store taking over, a provider's Retry-After). */
  floor: number;
};

export type RedisBucket = {
  take(key: string, a: TakeArgs): Promise<Reservation>;
  countOther(key: string, now: number, spacingMs: number): Promise<void>;
  /** No slot of `key` before `at`. */
  hold(key: string, at: number, now: number): Promise<void>;
  /**
   * Whether the connection is up (the first time, it is waited for up to a second): a store
   * switch into Redis is only begun on a connection that is.
   */
  connected(): Promise<boolean>;
  /** How many times the connection was made again after the first: Redis may have lost its keys meanwhile. */
  reconnects(): number;
  close(): Promise<void>;
};

export function redisBucket(url: string, prefix = "swb:pace:"): RedisBucket {
  // A dropped connection is retried every 100-500 ms, so every process comes back to Redis
  // soon after it does (rate-bucket.ts moves the timeline between the stores); a command not
  // answered in 500 ms fails (a cut connection may otherwise hold it unanswered).
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(100 * times, 500),
  });
  redis.on("error", () => {}); // a failed command falls back to PostgreSQL (rate-bucket.ts)
  let readies = 0;
  redis.on("ready", () => {
    readies += 1;
  });
  const k = (key: string) => `${prefix}${key}`;
  return {
    async take(key, a) {
      const r = (await redis.eval(
        TAKE,
        1,
        k(key),
        a.now,
        a.want,
        a.spacingMs,
        a.sharedSpacingMs,
        a.floor,
        OTHERS_SEEN_MS,
        AHEAD_MS,
      )) as [number, string, string, string];
      const firstAt = Number(r[1]);
      return {
        granted: Number(r[0]),
        firstAt,
        spacingMs: Number(r[2]),
        nextAt: Number(r[3]),
        retryAt: Math.max(a.now, firstAt - AHEAD_MS + 1),
      };
    },
    async countOther(key, now, spacingMs) {
      await redis.eval(OTHER, 1, k(key), now, spacingMs);
    },
    async hold(key, at, now) {
      await redis.eval(HOLD, 1, k(key), at, now);
    },
    async connected() {
      if (redis.status === "ready") return true;
      if (readies > 0) return false;
      return new Promise<boolean>((resolve) => {
        const done = (up: boolean) => {
          clearTimeout(timer);
          redis.off("ready", onReady);
          resolve(up);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), 1_000);
        redis.once("ready", onReady);
      });
    },
    reconnects: () => Math.max(0, readies - 1),
    async close() {
      await redis.quit().catch(() => {});
    },
  };
}
