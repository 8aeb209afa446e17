// The health endpoints (docs/deployment.md "Health checks"): GET /api/health on the lean
// server's mounts and GET /healthz on a worker's health server answer 200 with the database
// reachable, say where the rate-limit windows count, and refuse other methods and paths.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHealthServer } from "@/lib/http/health";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { sendHttp } from "./http-send";

const servers: http.Server[] = [];
const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

let api: number;
let worker: number;

beforeAll(async () => {
  const lean = createLeanServer(mounts);
  await new Promise<void>((resolve) => lean.listen(0, "127.0.0.1", resolve));
  servers.push(lean, await startHealthServer(0, "worker"));
  api = portOf(lean);
  worker = portOf(servers[1] as http.Server);
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

describe("health checks", () => {
  it("an API instance answers GET /api/health without a token", async () => {
    const r = await sendHttp(api, "GET", "/api/health");
    expect(r.status).toBe(200);
    expect(r.headers["cache-control"]).toBe("no-store");
    // Without REDIS_URL the windows count in this process.
    expect(JSON.parse(r.text)).toEqual({
      status: "ok",
      role: "api",
      checks: { database: "ok" },
      rateLimits: process.env.REDIS_URL ? expect.stringMatching(/^redis/) : "memory",
    });
    expect((await sendHttp(api, "POST", "/api/health")).status).toBe(405);
    expect((await sendHttp(api, "GET", "/api/healthy")).status).toBe(404);
  });

  it("a worker's health server answers GET /healthz", async () => {
    const r = await sendHttp(worker, "GET", "/healthz");
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ status: "ok", role: "worker", checks: { database: "ok" } });
    expect((await sendHttp(worker, "GET", "/elsewhere")).status).toBe(404);
  });
});
