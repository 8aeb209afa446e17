// The one public port of `npm start`: the public API and the provider callback endpoint are
// served here directly (the lean router, with the client address from the socket), and
// everything else (dashboard pages, next-auth, app/api/dashboard) is passed to the Next
// server on a loopback port. Next alone cannot tell its route handlers the socket
// address, and keeps a client's own X-Forwarded-For: per-IP rate limits would be a header
// away from bypassed. Here X-Forwarded-For is always ours (TRUST_PROXY keeps the hops a
// trusted proxy in front of us added).
import http from "node:http";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { createLeanServer, type Mount } from "./lean-server";

/** Paths the lean router serves: /api/v2..., /api/v3..., /api/provider/webhook. */
export const servesDirectly = (path: string) => /^\/api\/(v2|v3|provider\/webhook)(\/|\?|$)/.test(path);

/** The X-Forwarded-For Next gets: the socket's address, after a trusted proxy's hops. */
export function forwardedFor(header: string | string[] | undefined, socketIp: string | undefined): string {
  const own = socketIp ?? "unknown";
  const previous = Array.isArray(header) ? header.join(", ") : header;
  return env().TRUST_PROXY && previous ? `${previous}, ${own}` : own;
}

export function createFrontServer(mounts: Mount[], next: { host: string; port: number }): http.Server {
  const lean = createLeanServer(mounts);
  const direct = lean.listeners("request")[0] as http.RequestListener;
  return http.createServer((req, res) => {
    if (servesDirectly(req.url ?? "/")) {
      direct(req, res);
      return;
    }
    const upstream = http.request(
      {
        host: next.host,
        port: next.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          "x-forwarded-for": forwardedFor(req.headers["x-forwarded-for"], req.socket.remoteAddress),
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      log.warn({ err: error }, "the Next server did not answer");
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("The dashboard is starting or unavailable; try again in a moment.");
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
}
