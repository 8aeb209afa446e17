// The per-sender send budget shared by every worker and instance (docs/broadcasts.md
// "Throughput"): one row per key and second in PostgreSQL, taken under its row lock, so two
// processes never hand out the same second's tokens twice. A broadcast takes at most 80% of
// a second while other sends of the sender were seen in this or the last second (the inbox
// is never starved); other sends are counted, never held back.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { type RedisBucket, redisBucket } from "./rate-bucket-redis";

// With REDIS_URL the bucket lives in Redis (rate-bucket-redis.ts); a Redis error falls back
// to the PostgreSQL rows for that take.
let redis: RedisBucket | null | undefined;
function redisStore(): RedisBucket | null {
  if (redis === undefined) {
    const url = env().REDIS_URL;
    redis = url ? redisBucket(url) : null;
  }
  return redis;
}

/** The part of a sender's second a broadcast may take while other sends are waiting. */
export const BROADCAST_SHARE = 0.8;

/**
 * Takes up to `want` tokens of `key`'s current second (cap per second); returns how many it
 * got (0: the second is spent). `broadcast` tokens leave room for other sends of the key.
 */
export async function takeTokens(
  key: string,
  want: number,
  cap: number,
  options: { broadcast: boolean; now?: number },
): Promise<number> {
  if (want <= 0 || cap <= 0) return 0;
  const second = Math.floor((options.now ?? Date.now()) / 1000);
  const shared = options.broadcast ? Math.max(1, Math.floor(cap * BROADCAST_SHARE)) : cap;
  const store = redisStore();
  if (store) {
    try {
      return await store.take(key, second, want, cap, shared, options.broadcast);
    } catch (error) {
      log.warn({ err: error }, "rate bucket: Redis unavailable, counting in PostgreSQL");
    }
  }
  await db.$executeRawUnsafe(
    `INSERT INTO "SenderRateSlot" ("senderId", second, count, "broadcastCount", "otherCount")
     VALUES ($1, $2, 0, 0, 0) ON CONFLICT DO NOTHING`,
    key,
    second,
  );
  const rows = await db.$queryRawUnsafe<{ n: number }[]>(
    `UPDATE "SenderRateSlot" s SET count = s.count + g.n, "broadcastCount" = s."broadcastCount" + g.n
       FROM (SELECT "senderId", second, GREATEST(0, LEAST($3::int, $4::int - count,
               CASE WHEN $6::boolean AND EXISTS (SELECT 1 FROM "SenderRateSlot" o WHERE o."senderId" = $1
                      AND o.second IN ($2 - 1, $2) AND o."otherCount" > 0)
                    THEN $5::int - "broadcastCount" ELSE $4::int END))::int AS n
               FROM "SenderRateSlot" WHERE "senderId" = $1 AND second = $2 FOR UPDATE) g
      WHERE s."senderId" = g."senderId" AND s.second = g.second
      RETURNING g.n`,
    key,
    second,
    want,
    cap,
    shared,
    options.broadcast,
  );
  return rows[0]?.n ?? 0;
}

/** Counts a send that is not a broadcast's (the inbox, /send): broadcasts then leave it room. */
export async function countOtherSend(senderId: string, now = Date.now()): Promise<void> {
  const second = Math.floor(now / 1000);
  const store = redisStore();
  if (store) {
    try {
      await store.countOther(senderId, second);
      return;
    } catch (error) {
      log.warn({ err: error }, "rate bucket: Redis unavailable, counting in PostgreSQL");
    }
  }
  await db.$executeRawUnsafe(
    `INSERT INTO "SenderRateSlot" AS s ("senderId", second, count, "broadcastCount", "otherCount")
     VALUES ($1, $2, 1, 0, 1)
     ON CONFLICT ("senderId", second) DO UPDATE SET count = s.count + 1, "otherCount" = s."otherCount" + 1`,
    senderId,
    second,
  );
}

/** Drops slots older than a minute (called now and then by the broadcast worker). */
export async function pruneSlots(now = Date.now()): Promise<void> {
  await db.$executeRawUnsafe(`DELETE FROM "SenderRateSlot" WHERE second < $1`, Math.floor(now / 1000) - 60);
}
