// The verified-token cache's logic alone (docs/tokens.md "Verified-token cache"):
// bound, maximum age, liveness and the generation that refuses stale look-ups.
import { describe, expect, it } from "vitest";
import { VerifiedCache } from "./verified-cache";

function cacheWith(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = { now: 0, live: true };
  const cache = new VerifiedCache<string>({
    maxEntries: options.maxEntries ?? 3,
    maxAgeMs: options.maxAgeMs ?? 60_000,
    live: () => clock.live,
    clock: () => clock.now,
  });
  const put = (key: string, value = `v-${key}`) => cache.store(key, value, cache.ticket());
  return { cache, clock, put };
}

describe("VerifiedCache", () => {
  it("returns what was stored, and counts hits and misses", () => {
    const { cache, put } = cacheWith();
    expect(cache.get("a")).toBeUndefined();
    put("a");
    expect(cache.get("a")).toBe("v-a");
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  it("keeps at most maxEntries, evicting the least recently used", () => {
    const { cache, put } = cacheWith({ maxEntries: 3 });
    put("a");
    put("b");
    put("c");
    expect(cache.get("a")).toBe("v-a"); // a is now the most recently used
    put("d");
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual(["v-a", "v-c", "v-d"]);
  });

  it("stays bounded under many distinct keys", () => {
    const { cache, put } = cacheWith({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) put(`k${i}`);
    expect(cache.size).toBe(100);
    expect(cache.get("k9999")).toBe("v-k9999");
    expect(cache.get("k0")).toBeUndefined();
  });

  it("drops an entry once it is maxAgeMs old, even with no change notified", () => {
    const { cache, clock, put } = cacheWith({ maxAgeMs: 60_000 });
    put("a");
    clock.now = 59_999;
    expect(cache.get("a")).toBe("v-a");
    clock.now = 60_000;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("a hit does not extend the maximum age", () => {
    const { cache, clock, put } = cacheWith({ maxAgeMs: 1_000 });
    put("a");
    for (clock.now = 0; clock.now < 1_000; clock.now += 100) expect(cache.get("a")).toBe("v-a");
    expect(cache.get("a")).toBeUndefined();
  });

  it("invalidateAll forgets everything", () => {
    const { cache, put } = cacheWith();
    put("a");
    put("b");
    cache.invalidateAll();
    expect(cache.size).toBe(0);
    expect(cache.get("a")).toBeUndefined();
  });

  it("refuses the result of a look-up that started before an invalidation", () => {
    const { cache } = cacheWith();
    const ticket = cache.ticket(); // the look-up starts and reads the row
    cache.invalidateAll(); // a change commits and its notification arrives
    cache.store("a", "stale", ticket); // the look-up returns what it read before the change
    expect(cache.get("a")).toBeUndefined();
    cache.store("a", "fresh", cache.ticket());
    expect(cache.get("a")).toBe("fresh");
  });

  it("while not live: serves nothing, stores nothing, and what it held is gone for good", () => {
    const { cache, clock, put } = cacheWith();
    put("a");
    clock.live = false;
    expect(cache.ticket()).toBeUndefined();
    expect(cache.get("a")).toBeUndefined();
    put("b");
    expect(cache.size).toBe(0);
    clock.live = true;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeUndefined();
  });

  it("refuses a look-up started while not live even if it ends while live", () => {
    const { cache, clock } = cacheWith();
    clock.live = false;
    const ticket = cache.ticket();
    clock.live = true;
    cache.store("a", "v", ticket);
    expect(cache.get("a")).toBeUndefined();
  });

  it("refuses a look-up that ends while not live", () => {
    const { cache, clock } = cacheWith();
    const ticket = cache.ticket();
    clock.live = false;
    cache.store("a", "v", ticket);
    clock.live = true;
    expect(cache.get("a")).toBeUndefined();
  });
});
