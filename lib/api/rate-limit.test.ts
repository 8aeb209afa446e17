// Fixed-window limits (docs/api/limits.md, docs/configuration.md) through the router, in memory and in
// Redis (REDIS_URL, as several instances run it).
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { callWith, randomIp } from "@/test/router-call";
import { createRateLimiter, type RateLimiter, resetRateLimiters } from "./rate-limit";
import { ok, route } from "./route-definition";
import { createRouter } from "./router";

const REDIS_URL = "redis://127.0.0.1:6379";
const LIMITS = {
  RATE_LIMIT_GLOBAL: "5",
  RATE_LIMIT_SEND_IP: "3",
  RATE_LIMIT_SEND_TOKEN: "4",
  RATE_LIMIT_REPORTS_IP: "2",
  RATE_LIMIT_WINDOW_SECONDS: "60",
};

const handlerSpy = vi.fn();
const both = ["v2", "v3"] as const;
const table = [
  route({
    method: "GET",
    path: "/plain",
    versions: both,
    summary: "global class",
    tag: "Test",
    limit: "global",
    handler: async () => {
      handlerSpy("plain");
      return ok("Plain", {});
    },
  }),
  route({
    method: "POST",
    path: "/send",
    versions: both,
    summary: "send class",
    tag: "Test",
    limit: "send",
    handler: async () => {
      handlerSpy("send");
      return ok("Sent", {});
    },
  }),
  route({
    method: "GET",
    path: "/reports/messages",
    versions: both,
    summary: "reports class",
    tag: "Test",
    limit: "reports",
    handler: async () => {
      handlerSpy("reports");
      return ok("Report", {});
    },
  }),
];

function setEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

let c: TestCustomer;
const saved = { ...process.env };
beforeAll(async () => {
  c = await createTestCustomer();
});
afterAll(async () => {
  await resetRateLimiters();
  for (const k of [...Object.keys(LIMITS), "REDIS_URL"]) setEnv({ [k]: saved[k] });
});

describe.each([
  { store: "memory", redisUrl: undefined },
  { store: "redis", redisUrl: REDIS_URL },
])("$store store", ({ store, redisUrl }) => {
  // The process-wide limiter, built from the environment like in production.
  const handle = createRouter(table);
  const get = (path: string, ip: string, token?: string) => callWith(handle, "GET", path, { ip, token });
  const send = (ip: string, token?: string, version = "v3") =>
    callWith(handle, "POST", `/api/${version}/send`, { ip, token });

  beforeEach(async () => {
    setEnv({ ...LIMITS, REDIS_URL: redisUrl });
    await resetRateLimiters();
    handlerSpy.mockClear();
  });

  it("429 comes before authentication and before the handler", async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await get("/api/v3/plain", ip)).status).toBe(401);
    const limited = await get("/api/v3/plain", ip, c.globalToken);
    expect(limited.status).toBe(429);
    expect((await get("/api/v3/plain", ip, "not-a-token")).status).toBe(429);
    expect(handlerSpy).not.toHaveBeenCalled();

    expect(limited.body).toMatchObject({ success: false, error_code: "REQUEST_FAILED" });
    const { details } = limited.body;
    expect(details).toEqual({ limit: 5, windowSeconds: 60, retryAfterSeconds: expect.any(Number), policy: "global" });
    expect(details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(limited.headers.get("retry-after")).toBe(String(details.retryAfterSeconds));
    expect(limited.headers.get("ratelimit-limit")).toBe("5");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("x-service-request-id")).toBe(limited.body.metadata.requestId);
  });

  it("RateLimit headers count down on every limited response, errors included", async () => {
    const ip = randomIp();
    const first = await get("/api/v3/plain", ip, c.globalToken);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("5");
    expect(first.headers.get("ratelimit-remaining")).toBe("4");
    const reset = Number(first.headers.get("ratelimit-reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    const second = await get("/api/v3/plain", ip);
    expect(second.status).toBe(401);
    expect(second.headers.get("ratelimit-remaining")).toBe("3");
    expect(second.headers.get("retry-after")).toBeNull();
  });

  it("one budget across v2 and v3", async () => {
    const ip = randomIp();
    for (const version of ["v2", "v3", "v2", "v3", "v2"]) {
      expect((await get(`/api/${version}/plain`, ip, c.globalToken)).status).toBe(200);
    }
    expect((await get("/api/v3/plain", ip, c.globalToken)).status).toBe(429);
    expect((await get("/api/v2/plain", ip, c.globalToken)).status).toBe(429);
    expect(handlerSpy).toHaveBeenCalledTimes(5);
  });

  it("a send consumes the global window and both send windows", async () => {
    const ip = randomIp();
    const { globalToken } = await createTestCustomer();
    for (let i = 0; i < 3; i++) expect((await send(ip, globalToken)).status).toBe(200);
    const byIp = await send(ip, globalToken);
    expect(byIp.status).toBe(429);
    expect(byIp.body.details).toMatchObject({ policy: "send_ip", limit: 3 });
    // The four sends used four of the five global points of this address.
    expect((await get("/api/v3/plain", ip, globalToken)).status).toBe(200);
    const global = await get("/api/v3/plain", ip, globalToken);
    expect(global.status).toBe(429);
    expect(global.body.details.policy).toBe("global");

    // The token window follows the token across addresses (v2 and v3 alike).
    const { globalToken: token } = await createTestCustomer();
    for (const version of ["v2", "v3", "v2", "v3"]) expect((await send(randomIp(), token, version)).status).toBe(200);
    const byToken = await send(randomIp(), token);
    expect(byToken.status).toBe(429);
    expect(byToken.body.details).toMatchObject({ policy: "send_token", limit: 4 });
    expect(handlerSpy.mock.calls.filter(([k]) => k === "send")).toHaveLength(7);
  });

  it("reports count only against the reports window", async () => {
    const ip = randomIp();
    for (let i = 0; i < 2; i++) expect((await get("/api/v2/reports/messages", ip, c.globalToken)).status).toBe(200);
    const limited = await get("/api/v3/reports/messages", ip, c.globalToken);
    expect(limited.status).toBe(429);
    expect(limited.body.details).toMatchObject({ policy: "reports_ip", limit: 2 });
    expect(limited.headers.get("ratelimit-limit")).toBe("2");
    // The global window of this address is untouched: all five points remain.
    const plain = await get("/api/v3/plain", ip, c.globalToken);
    expect(plain.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("other routes count only against the global window", async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await get("/api/v3/plain", ip, c.globalToken)).status).toBe(200);
    expect((await get("/api/v3/plain", ip, c.globalToken)).status).toBe(429);
    // Reports are not counted globally, so they still pass; a send needs the global window.
    expect((await get("/api/v3/reports/messages", ip, c.globalToken)).status).toBe(200);
    const sendRes = await send(ip, c.globalToken);
    expect(sendRes.status).toBe(429);
    expect(sendRes.body.details.policy).toBe("global");
  });

  it("unknown routes and wrong methods count against the global window", async () => {
    const ip = randomIp();
    for (let i = 0; i < 4; i++) expect((await get("/api/v3/nowhere", ip)).status).toBe(404);
    expect((await callWith(handle, "DELETE", "/api/v3/plain", { ip })).status).toBe(405);
    const limited = await get("/api/v3/nowhere", ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).not.toBeNull();
  });

  it("a window resets after RATE_LIMIT_WINDOW_SECONDS", async () => {
    // 3 s, not 1: on a loaded machine three requests can take longer than a second, and a
    // window that ran out before the third would let it through.
    setEnv({ RATE_LIMIT_WINDOW_SECONDS: "3", RATE_LIMIT_GLOBAL: "2" });
    await resetRateLimiters();
    const ip = randomIp();
    expect((await get("/api/v3/plain", ip, c.globalToken)).status).toBe(200);
    expect((await get("/api/v3/plain", ip, c.globalToken)).status).toBe(200);
    const limited = await get("/api/v3/plain", ip, c.globalToken);
    expect(limited.status).toBe(429);
    expect(limited.body.details).toMatchObject({ windowSeconds: 3, limit: 2 });
    const retryAfter = limited.body.details.retryAfterSeconds;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(limited.headers.get("retry-after")).toBe(String(retryAfter));
    // Retry-After is the rest of the window, rounded up: within it, the window resets, and the
    // first request of the new window has the whole budget but one.
    const again = await vi.waitFor(
      async () => {
        const r = await get("/api/v3/plain", ip, c.globalToken);
        expect(r.status).toBe(200);
        return r;
      },
      { timeout: retryAfter * 1000 + 500, interval: 100 },
    );
    expect(again.headers.get("ratelimit-remaining")).toBe("1");
  });

  if (store === "redis") {
    it("counts in Redis, keyed by address and by token hash, never the token itself", async () => {
      const ip = randomIp();
      await send(ip, c.globalToken);
      const redis = new Redis(REDIS_URL);
      try {
        expect(Number(await redis.get(`swb_rl_global:${ip}`))).toBeGreaterThanOrEqual(1);
        expect(Number(await redis.get(`swb_rl_send_ip:${ip}`))).toBe(1);
        const tokenKeys = await redis.keys("swb_rl_send_token:*");
        expect(tokenKeys.length).toBeGreaterThan(0);
        expect(tokenKeys.join(" ")).not.toContain(c.globalToken);
      } finally {
        redis.disconnect();
      }
    });
  }
});

describe("many instances", () => {
  const limiters: RateLimiter[] = [];
  const instance = (redisUrl: string | undefined, keyPrefix: string) => {
    const limiter = createRateLimiter({
      limits: { global: 4, send_ip: 100, send_token: 100, reports_ip: 100 },
      windowSeconds: 60,
      redisUrl,
      keyPrefix,
    });
    limiters.push(limiter);
    return createRouter(table, { rateLimiter: limiter });
  };
  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close()));
  });

  it("two router instances on one Redis share one budget", async () => {
    const prefix = `swb_rl_test_${randomBytes(4).toString("hex")}`;
    const a = instance(REDIS_URL, prefix);
    const b = instance(REDIS_URL, prefix);
    const ip = randomIp();
    const statuses: number[] = [];
    for (const h of [a, b, a, b, a, b]) {
      statuses.push((await callWith(h, "GET", "/api/v3/plain", { ip, token: c.globalToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("while Redis is unreachable, each instance keeps limiting in memory", async () => {
    const down = instance("redis://127.0.0.1:1", "unused");
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await callWith(down, "GET", "/api/v3/plain", { ip, token: c.globalToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("without Redis each instance counts alone (why Redis is needed)", async () => {
    const a = instance(undefined, "unused");
    const b = instance(undefined, "unused");
    const ip = randomIp();
    const statuses: number[] = [];
    for (const h of [a, b, a, b, a, b]) {
      statuses.push((await callWith(h, "GET", "/api/v3/plain", { ip, token: c.globalToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
