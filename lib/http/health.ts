// GET /api/health on the lean server and the front server of `npm start`, and the small
// health server a worker opens on WORKER_HEALTH_PORT (docs/deployment.md "Health checks"):
// 200 {status: "ok", ...} when the database answers, else 503. No token, no rate limit.
import http from "node:http";
import { rateLimitStore } from "@/lib/api/rate-limit";
import { checkHealth, type ProcessRole } from "@/lib/domains/health/check";
import type { Mount } from "./lean-server";

export const HEALTH_PATH = "/api/health";

async function healthResponse(role: ProcessRole, method: string): Promise<Response> {
  if (method !== "GET" && method !== "HEAD") {
    return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const health = await checkHealth(role);
  // API instances say where their rate-limit windows count: "redis" (shared by instances),
  // "memory" (no REDIS_URL), "redis-unavailable" (counting alone until Redis is back). It
  // does not fail the check: every instance would go out of the load balancer with Redis.
  const body = role === "worker" ? health : { ...health, rateLimits: await rateLimitStore() };
  return new Response(method === "HEAD" ? null : JSON.stringify(body), {
    status: health.status === "ok" ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/** The API instances' health endpoint, a mount of lib/http/mounts.ts. */
export function healthMount(role: ProcessRole): Mount {
  return {
    prefix: HEALTH_PATH,
    handle: (request) => {
      const path = new URL(request.url).pathname.replace(/\/$/, "");
      if (path !== HEALTH_PATH) return Promise.resolve(new Response("Not Found", { status: 404 }));
      return healthResponse(role, request.method);
    },
  };
}

/** A worker's health server: GET /healthz (and /api/health) on its own port; 0 picks a free one. */
export async function startHealthServer(port: number, role: ProcessRole): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]?.replace(/\/$/, "");
    if (path !== "/healthz" && path !== HEALTH_PATH) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
      return;
    }
    void healthResponse(role, req.method ?? "GET").then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(response.body ? await response.text() : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, resolve);
  });
  return server;
}
