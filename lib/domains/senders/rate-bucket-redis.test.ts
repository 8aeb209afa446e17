// The Redis store of the per-sender token bucket (docs/broadcasts.md "Throughput"): a second's
// tokens handed out once across concurrent callers, and the broadcasts' 80% share while other
// sends are waiting. Needs the local Redis (TEST_REDIS_URL, default db 9), as the scale-out test.
import { afterAll, describe, expect, it } from "vitest";
import { uniquePhone } from "@/test/factory";
import { redisBucket } from "./rate-bucket-redis";

const bucket = redisBucket(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/9");
afterAll(() => bucket.close());

describe("the Redis token bucket", () => {
  it("hands out a second's tokens once across concurrent callers", async () => {
    const key = `test:${uniquePhone()}`;
    const second = Math.floor(Date.now() / 1000);
    const got = await Promise.all([0, 1, 2, 3].map(() => bucket.take(key, second, 5, 12, 9, false)));
    expect(got.reduce((a, b) => a + b, 0)).toBe(12);
    expect(await bucket.take(key, second + 1, 50, 12, 9, false)).toBe(12);
  });

  it("a broadcast takes at most its share while other sends were seen this or the last second", async () => {
    const key = `test:${uniquePhone()}`;
    const second = Math.floor(Date.now() / 1000);
    expect(await bucket.take(key, second, 100, 10, 8, true)).toBe(10);
    await bucket.countOther(key, second + 1);
    expect(await bucket.take(key, second + 2, 100, 10, 8, true)).toBe(8);
  });
});
