// A real HTTP receiver on 127.0.0.1 (random port) for delivery tests and benchmarks. Every
// request is verified with the public `standardwebhooks` package (not our code) against the
// secret registered for its path; behaviour per path is scripted by the test.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = {
  path: string;
  webhookId: string;
  timestamp: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed delivery body
  payload: any;
  verified: boolean;
  at: number;
};

export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };
export type Behaviour = (count: number, req: http.IncomingMessage) => Reply;

export type Receiver = {
  url: (path: string) => string;
  /** Registers a path: its signing secret and how it answers (default 200). */
  route: (path: string, secret: string, behaviour?: Behaviour) => void;
  received: Received[];
  on: (path: string) => Received[];
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const routes = new Map<string, { secret: string; behaviour: Behaviour; count: number }>();
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const r = routes.get(path);
      let verified = false;
      let payload: unknown = null;
      if (r) {
        try {
          payload = new Webhook(r.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      received.push({
        path,
        webhookId: String(req.headers["webhook-id"] ?? ""),
        timestamp: String(req.headers["webhook-timestamp"] ?? ""),
        headers: req.headers,
        body,
        payload,
        verified,
        at: Date.now(),
      });
      const reply = r ? r.behaviour(++r.count, req) : { status: 404 };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "ok");
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route: (path, secret, behaviour = () => ({ status: 200 })) => {
      routes.set(path, { secret, behaviour, count: 0 });
    },
    received,
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
