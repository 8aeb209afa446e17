// The per-sender token bucket in Redis (REDIS_URL set: docs/broadcasts.md "Throughput"): the
// same seconds and the same rule as the PostgreSQL bucket (rate-bucket.ts), one Lua script per
// take, so the read and the increment are atomic across every worker and instance. Keys
// expire a few seconds after their second.
import { Redis } from "ioredis";

const TAKE = `
local count = tonumber(redis.call('HGET', KEYS[1], 'c') or '0')
local taken = tonumber(redis.call('HGET', KEYS[1], 'b') or '0')
local want, cap, shared = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local limit = cap - count
if ARGV[4] == '1' then
  local others = tonumber(redis.call('HGET', KEYS[1], 'o') or '0') + tonumber(redis.call('HGET', KEYS[2], 'o') or '0')
  if others > 0 then limit = math.min(limit, shared - taken) end
end
local n = math.max(0, math.min(want, limit))
if n > 0 then
  redis.call('HINCRBY', KEYS[1], 'c', n)
  if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[1], 'b', n) end
end
redis.call('EXPIRE', KEYS[1], 10)
return n`;

const OTHER = `
redis.call('HINCRBY', KEYS[1], 'c', 1)
redis.call('HINCRBY', KEYS[1], 'o', 1)
redis.call('EXPIRE', KEYS[1], 10)
return 1`;

export type RedisBucket = {
  take(key: string, second: number, want: number, cap: number, shared: number, broadcast: boolean): Promise<number>;
  countOther(key: string, second: number): Promise<void>;
  close(): Promise<void>;
};

const slot = (key: string, second: number) => `swb:bucket:${key}:${second}`;

export function redisBucket(url: string): RedisBucket {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // a failed command falls back to PostgreSQL (rate-bucket.ts)
  return {
    async take(key, second, want, cap, shared, broadcast) {
      const n = await redis.eval(
        TAKE,
        2,
        slot(key, second),
        slot(key, second - 1),
        want,
        cap,
        shared,
        broadcast ? "1" : "0",
      );
      return Number(n);
    },
    async countOther(key, second) {
      await redis.eval(OTHER, 1, slot(key, second));
    },
    async close() {
      await redis.quit().catch(() => {});
    },
  };
}
