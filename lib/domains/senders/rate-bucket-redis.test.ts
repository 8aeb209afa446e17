// The Redis store of the per-sender pacer (docs/broadcasts.md "Throughput"), and its fallback to
// PostgreSQL and back (twice the throughput after a recovery, once): a sender's
// slots handed out once across concurrent callers, and a store that takes over from the other
// (Redis unreachable, then back) hands out no slot inside a window the other already filled.
// Needs the local Redis (TEST_REDIS_URL, default db 9), as the scale-out test; Redis is made
// unreachable by closing a TCP relay in front of it.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mostInAnyWindow } from "@/lib/domains/provider/sliding-window";
import { uniquePhone } from "@/test/factory";
import { AHEAD_MS, type Reservation, SWITCH_GUARD_MS, spacingMs } from "./pacing";
import { takeSlots, useRedisStore } from "./rate-bucket";
import { redisBucket } from "./rate-bucket-redis";

const REDIS = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/9");
const prefix = `test:pace:${process.pid}:${Date.now()}:`;
const bucket = redisBucket(REDIS.href, prefix);
const slotsOf = (r: Reservation) => Array.from({ length: r.granted }, (_, i) => r.firstAt + i * r.spacingMs);

/** A TCP relay to Redis that can be cut (every connection dropped, new ones refused) and opened again. */
function relay() {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(REDIS.port || 6379), REDIS.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
      ),
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    reopen() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

afterAll(() => bucket.close());

describe("the Redis pacer", () => {
  it("hands out a sender's slots once across concurrent callers, no further ahead than AHEAD_MS", async () => {
    const key = uniquePhone();
    const now = Date.now();
    const sp = spacingMs(12);
    const args = { now, want: 10, spacingMs: sp, sharedSpacingMs: 0, floor: 0 };
    const got = await Promise.all([0, 1, 2, 3].map(() => bucket.take(key, args)));
    expect(got.reduce((a, r) => a + r.granted, 0)).toBe(Math.ceil(AHEAD_MS / sp));
    const slots = got.flatMap(slotsOf).sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++) expect((slots[i] ?? 0) - (slots[i - 1] ?? 0)).toBeCloseTo(sp, 3);
    expect((await bucket.take(key, { ...args, want: 50 })).granted).toBe(0);
  });

  it("a broadcast takes the wider share spacing while other sends of the sender were seen", async () => {
    const key = uniquePhone();
    const now = Date.now();
    const sp = spacingMs(10);
    const shared = spacingMs(10, 0.8);
    expect(
      (await bucket.take(key, { now, want: 100, spacingMs: sp, sharedSpacingMs: shared, floor: 0 })).spacingMs,
    ).toBeCloseTo(sp, 3);
    const key2 = uniquePhone();
    await bucket.countOther(key2, now, sp);
    const r = await bucket.take(key2, { now, want: 100, spacingMs: sp, sharedSpacingMs: shared, floor: 0 });
    expect(r.spacingMs).toBeCloseTo(shared, 3);
    expect(r.firstAt).toBeCloseTo(now + sp, 3);
  });
});

describe("falling back to PostgreSQL and back", () => {
  const cut = relay();
  let through: ReturnType<typeof redisBucket>;
  beforeAll(async () => {
    const port = await cut.listen();
    through = redisBucket(`redis://127.0.0.1:${port}${REDIS.pathname}`, prefix);
    useRedisStore(through);
  });
  afterAll(async () => {
    useRedisStore(undefined);
    await through.close();
    await cut.close();
  });

  it("a slot spent in one store is spent in the other: the store taken over refuses until the window passes", async () => {
    const key = uniquePhone();
    const o = { perSecond: 80, broadcast: false } as const;
    const t0 = Date.now();
    const calls: number[] = [];
    // Redis hands out the rate.
    const inRedis = await takeSlots(key, 200, { ...o, now: t0 });
    expect(inRedis.granted).toBe(Math.ceil(AHEAD_MS / spacingMs(80)));
    calls.push(...slotsOf(inRedis));
    // Redis unreachable: PostgreSQL hands out nothing inside that window, nor the next.
    cut.cut();
    for (const at of [t0 + 10, t0 + 500, t0 + 1_000])
      expect((await takeSlots(key, 200, { ...o, now: at })).granted).toBe(0);
    const inPostgres = await takeSlots(key, 200, { ...o, now: t0 + 1_500 });
    expect(inPostgres.granted).toBeGreaterThan(0);
    expect(inPostgres.firstAt).toBeGreaterThanOrEqual(t0 + 10 + SWITCH_GUARD_MS);
    calls.push(...slotsOf(inPostgres));
    // Redis back (a relay open again; its key may be anything): its slots follow PostgreSQL's.
    cut.reopen();
    let back: Reservation | null = null;
    for (let i = 0; i < 50 && !back; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // ioredis reconnects on its own timer
      back = await takeSlots(key, 200, { ...o, now: t0 + 1_600 });
      if (back.firstAt < inPostgres.nextAt - 1e-6 && back.granted > 0)
        throw new Error("Redis handed out a slot PostgreSQL had");
    }
    // Once more, now surely in Redis (a take from PostgreSQL would be refused: it was closed).
    const again = await takeSlots(key, 200, { ...o, now: inPostgres.nextAt });
    calls.push(...slotsOf(back as Reservation), ...slotsOf(again));
    expect(again.granted).toBeGreaterThan(0);
    expect(mostInAnyWindow(calls)).toBeLessThanOrEqual(80);
  });
});
