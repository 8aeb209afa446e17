// The per-sender pacer shared by every worker and instance (docs/broadcasts.md "Throughput"):
// a timeline of send slots per sender (pacing.ts), in PostgreSQL (`SenderPace`, taken under
// its row lock) or in Redis when REDIS_URL is set (rate-bucket-redis.ts). A broadcast's batch
// reserves slots and makes each call at its own; so no 1,000 ms holds more than the sender's
// throughput, however the clock seconds fall. A broadcast takes at most 80% of the pace while
// other sends of the sender were seen in the last 2 seconds (the inbox is never starved);
// other sends are counted, never held back.
//
// A Redis error falls back to PostgreSQL for that take, and the timeline moves with it: the
// store a sender's takes move to (Redis failed, came back, or reconnected and may have lost
// its keys) hands out no slot before every slot the other can have handed out (SWITCH_GUARD_MS),
// and coming back to Redis closes the PostgreSQL timeline for as long, so a second's slots are
// never handed out twice (once, after a recovery, twice the throughput went out).
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
// Plain pg, not the ORM: every send counts itself here and every broadcast batch takes slots
// (lib/db/pool.ts hotRows: Prisma's CPU per statement was more than the statement's own).
import { plainDb, plainTransaction } from "@/lib/db/plain-tx";
import {
  BROADCAST_SHARE,
  LocalWindows,
  OTHERS_SEEN_MS,
  type Reservation,
  reserve,
  SWITCH_GUARD_MS,
  spacingMs,
} from "./pacing";
import { type RedisBucket, redisBucket } from "./rate-bucket-redis";

const DEFAULT_THROUGHPUT = 80;

let redis: RedisBucket | null | undefined;
function redisStore(): RedisBucket | null {
  if (redis === undefined) {
    const url = env().REDIS_URL;
    redis = url ? redisBucket(url) : null;
  }
  return redis;
}

/** Tests: use this Redis store (null: PostgreSQL only; undefined: REDIS_URL again). */
export function useRedisStore(store: RedisBucket | null | undefined): void {
  redis = store;
  lastStore.clear();
}

type Store = "redis" | "postgres";
/** Per key, the store this process's last take used, and the Redis connection it used then. */
const lastStore = new Map<string, { store: Store; reconnects: number }>();

export type TakeOptions = {
  /** The sender's throughput (calls per second). */
  perSecond: number;
  /** A broadcast's take: its share of the pace while other sends are seen. */
  broadcast: boolean;
  /** A slower pace of its own (a broadcast's maxPerSecond), as spacing in ms. */
  minSpacingMs?: number;
  now?: number;
};

/**
 * Reserves up to `want` send slots of `key` (granted 0: none before now + AHEAD_MS; take again
 * at retryAt). Slot i is at firstAt + i * spacingMs; a call must not be made before its slot.
 */
export async function takeSlots(key: string, want: number, options: TakeOptions): Promise<Reservation> {
  const now = options.now ?? Date.now();
  const spacing = Math.max(spacingMs(options.perSecond), options.minSpacingMs ?? 0);
  const shared = options.broadcast ? Math.max(spacingMs(options.perSecond, BROADCAST_SHARE), spacing) : 0;
  if (want <= 0) return reserve(0, now, 0, spacing);
  const store = redisStore();
  if (store) {
    try {
      const floor = await intoRedis(key, store, now);
      const r = await store.take(key, { now, want, spacingMs: spacing, sharedSpacingMs: shared, floor });
      lastStore.set(key, { store: "redis", reconnects: store.reconnects() });
      return r;
    } catch (error) {
      log.warn({ err: error }, "pacer: Redis unavailable, pacing in PostgreSQL");
    }
  }
  const floor = store && lastStore.get(key)?.store !== "postgres" ? now + SWITCH_GUARD_MS : 0;
  // A plain pg transaction (a broadcast batch takes slots at least once): raw statements only.
  const r = await plainTransaction(async (tx) => {
    await tx.$executeRawUnsafe(`INSERT INTO "SenderPace" ("senderId") VALUES ($1) ON CONFLICT DO NOTHING`, key);
    const [row] = await tx.$queryRawUnsafe<{ nextAt: number; otherAt: number }[]>(
      `SELECT "nextAt", "otherAt" FROM "SenderPace" WHERE "senderId" = $1 FOR UPDATE`,
      key,
    );
    // The time under the row lock: slots from the moment they are handed out, not from the ask.
    const at = options.now ?? Date.now();
    const othersSeen = shared > 0 && (row?.otherAt ?? 0) > at - OTHERS_SEEN_MS;
    const taken = reserve(row?.nextAt ?? 0, at, want, othersSeen ? shared : spacing, floor);
    await tx.$executeRawUnsafe(
      `UPDATE "SenderPace" SET "nextAt" = $2::float8 WHERE "senderId" = $1`,
      key,
      taken.nextAt,
    );
    return taken;
  });
  if (store) lastStore.set(key, { store: "postgres", reconnects: store.reconnects() });
  return r;
}

/**
 * The floor of a Redis take: 0 while this process's takes of the key stayed in Redis on one
 * connection. Else (its first take, back from PostgreSQL, or Redis reconnected and may have
 * lost the key) past every slot PostgreSQL handed out, and PostgreSQL's timeline is closed for
 * SWITCH_GUARD_MS (a process still falling back meanwhile waits rather than pace beside Redis);
 * after a reconnect, also past every slot Redis itself may have forgotten.
 */
async function intoRedis(key: string, store: RedisBucket, now: number): Promise<number> {
  const last = lastStore.get(key);
  if (last?.store === "redis" && last.reconnects === store.reconnects()) return 0;
  if (!(await store.connected())) throw new Error("Redis is not connected");
  const guard = now + SWITCH_GUARD_MS;
  const rows = await plainDb.$queryRawUnsafe<{ before: number }[]>(
    `UPDATE "SenderPace" p SET "nextAt" = GREATEST(o."nextAt", $2::float8)
       FROM (SELECT "senderId", "nextAt" FROM "SenderPace" WHERE "senderId" = $1 FOR UPDATE) o
      WHERE p."senderId" = o."senderId" RETURNING o."nextAt" AS before`,
    key,
    guard,
  );
  const fromPostgres = rows[0]?.before ?? 0;
  // Back from PostgreSQL: its slots are known. A first take or a reconnect: Redis's own may be lost.
  return last?.store === "postgres" ? fromPostgres : Math.max(fromPostgres, last ? guard : 0);
}

/** Counts a send that is not a broadcast's (the inbox, /send): made at once, broadcasts then leave it room. */
export async function countOtherSend(
  sender: { id: string; throughputPerSecond?: number | null },
  now = Date.now(),
): Promise<void> {
  const spacing = spacingMs(sender.throughputPerSecond ?? DEFAULT_THROUGHPUT);
  const store = redisStore();
  if (store) {
    try {
      await store.countOther(sender.id, now, spacing);
      return;
    } catch (error) {
      log.warn({ err: error }, "pacer: Redis unavailable, counting in PostgreSQL");
    }
  }
  await plainDb.$executeRawUnsafe(
    `INSERT INTO "SenderPace" AS s ("senderId", "nextAt", "otherAt") VALUES ($1, $2::float8 + $3::float8, $2::float8)
     ON CONFLICT ("senderId") DO UPDATE SET "nextAt" = GREATEST(s."nextAt", $2::float8) + $3::float8, "otherAt" = $2::float8`,
    sender.id,
    now,
    spacing,
  );
}

/** No slot of `key` before `at` (a provider's 130429 with its Retry-After), in both stores. */
export async function holdSlots(key: string, at: number, now = Date.now()): Promise<void> {
  const store = redisStore();
  if (store) {
    try {
      await store.hold(key, at, now);
    } catch (error) {
      log.warn({ err: error }, "pacer: Redis unavailable, holding in PostgreSQL");
    }
  }
  await plainDb.$executeRawUnsafe(
    `INSERT INTO "SenderPace" AS s ("senderId", "nextAt") VALUES ($1, $2::float8)
     ON CONFLICT ("senderId") DO UPDATE SET "nextAt" = GREATEST(s."nextAt", $2::float8)`,
    key,
    at,
  );
}

/** This process's calls per sender in the last 1,000 ms: the last check before a paced call. */
export const localWindows = new LocalWindows();
