// The public port of `npm start`: the API served directly with the socket's address as the
// client (a spoofed X-Forwarded-For changes nothing), everything else passed to Next with
// an X-Forwarded-For of our own.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLIENT_ADDRESS_HEADER, requestClientIp, signedClientAddress } from "@/lib/core/client-ip";
import { resetEnvCache } from "@/lib/core/env";
import { BULK_BODY_LIMIT_BYTES } from "@/lib/domains/contacts/schemas";
import {
  answersDirectly,
  createFrontServer,
  endToEnd,
  forwardedHeaders,
  nextBodyLimit,
  servesDirectly,
} from "@/lib/http/front-server";
import { mounts } from "@/lib/http/mounts";
import { createTestCustomer, type TestCustomer } from "./factory";
import { type Reply, sendHttp } from "./http-send";
import { postChunked } from "./post-chunked";

let c: TestCustomer;
let front: http.Server;
let upstream: http.Server;
let frontPort: number;
/** The open live stream on the stand-in for Next, written to by the test. */
let liveStream: http.ServerResponse | undefined;
const seenByNext: { url: string; forwardedFor: string | undefined; body: string }[] = [];
/** The client address Next's handlers would read from each request (lib/core/client-ip.ts). */
const addressesSeenByNext: string[] = [];
/** Bytes Next was handed per path, answered or not (a cut request never ends). */
const bytesToNext = new Map<string, number>();
/** Called when the stand-in for Next has answered a request to /answers-early. */
let earlyAnswered: (() => void) | undefined;

const listen = (server: http.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  c = await createTestCustomer();
  // Stands in for `next start` on its loopback port.
  upstream = http.createServer((req, res) => {
    if (req.url === "/api/dashboard/live") {
      // A live stream (docs/inbox.md "Live updates"): headers and a first event, the rest later.
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" });
      res.write("event: ready\ndata: {}\n\n");
      liveStream = res;
      return;
    }
    if (req.url === "/answers-early") {
      // As Next answers a server action it refuses (its origin check): at once, before the body,
      // whose bytes it still counts (and drops) as they come.
      req.on("data", (d: Buffer) => bytesToNext.set(req.url ?? "", (bytesToNext.get(req.url ?? "") ?? 0) + d.length));
      res.on("finish", () => earlyAnswered?.());
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("refused by Next");
      return;
    }
    let body = "";
    req.on("data", (d: Buffer) => {
      bytesToNext.set(req.url ?? "", (bytesToNext.get(req.url ?? "") ?? 0) + d.length);
      if (body.length < 1024 * 1024) body += d;
    });
    req.on("end", () => {
      seenByNext.push({ url: req.url ?? "", forwardedFor: req.headers["x-forwarded-for"] as string, body });
      addressesSeenByNext.push(
        requestClientIp(new Headers({ [CLIENT_ADDRESS_HEADER]: String(req.headers[CLIENT_ADDRESS_HEADER] ?? "") })),
      );
      res.writeHead(200, { "Content-Type": "text/html", "Set-Cookie": ["a=1", "b=2"] });
      res.end("<h1>dashboard</h1>");
    });
  });
  const nextPort = await listen(upstream);
  front = createFrontServer(mounts, { host: "127.0.0.1", port: nextPort });
  frontPort = await listen(front);
});
afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  await new Promise((resolve) => upstream.close(resolve));
});
afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  sendHttp(frontPort, method, path, headers, body === undefined ? [] : [body]);

describe("front server", () => {
  it("knows which paths the API serves directly", () => {
    for (const p of ["/api/v3/billing/messages", "/api/v2/webhooks?x=1", "/api/v3", "/api/provider/webhook"]) {
      expect(servesDirectly(p), p).toBe(true);
    }
    for (const p of ["/billing", "/api/dashboard/messages", "/api/auth/session", "/api/v30", "/login"]) {
      expect(servesDirectly(p), p).toBe(false);
    }
  });

  it("answers every unknown /api path with the 404 envelope itself, never passing it to Next (no login redirect)", async () => {
    const before = seenByNext.length;
    for (const p of ["/api/v4/123/messages", "/api/whatever", "/api", "/api/v30/webhooks", "/api/provider/other?x=1"]) {
      expect(answersDirectly(p), p).toBe(true);
      const reply = await send("GET", p);
      expect(reply.status, p).toBe(404);
      expect(reply.headers["content-type"], p).toMatch(/^application\/json/);
      expect(reply.headers.location, p).toBeUndefined();
      const body = JSON.parse(reply.text);
      expect(body.success, p).toBe(false);
      expect(body.error_code, p).toBe("NOT_FOUND");
    }
    const posted = await send("POST", "/api/v4/123/messages", { "Content-Type": "application/json" }, "{}");
    expect(posted.status).toBe(404);
    expect(JSON.parse(posted.text).error_code).toBe("NOT_FOUND");
    for (const p of ["/api/auth/session", "/api/dashboard/messages", "/nowhere", "/billing"]) {
      expect(answersDirectly(p), p).toBe(false);
    }
    expect(seenByNext).toHaveLength(before);
  });

  it("rate-limits the API by the socket's address: a spoofed X-Forwarded-For is one more request from it", async () => {
    const auth = { Authorization: `Bearer ${c.globalToken}` };
    const first = await send("GET", "/api/v3/webhooks", { ...auth, "X-Forwarded-For": "203.0.113.1" });
    const second = await send("GET", "/api/v3/webhooks", { ...auth, "X-Forwarded-For": "198.51.100.7" });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).success).toBe(true);
    const remaining = (r: Reply) => Number(r.headers["ratelimit-remaining"]);
    expect(remaining(second)).toBe(remaining(first) - 1);
    expect(seenByNext).toHaveLength(0);
  });

  it("passes the dashboard to Next with the socket's address as X-Forwarded-For, bodies and cookies intact", async () => {
    const page = await send("GET", "/billing?from=2026-01-01", { "X-Forwarded-For": "203.0.113.1" });
    expect(page.status).toBe(200);
    expect(page.text).toBe("<h1>dashboard</h1>");
    expect(page.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    const posted = await send("POST", "/api/dashboard/messages", { "Content-Type": "application/json" }, '{"to":"x"}');
    expect(posted.status).toBe(200);
    expect(seenByNext.slice(-2)).toEqual([
      { url: "/billing?from=2026-01-01", forwardedFor: "127.0.0.1", body: "" },
      { url: "/api/dashboard/messages", forwardedFor: "127.0.0.1", body: '{"to":"x"}' },
    ]);
  });

  it("signs the socket's address for Next's handlers; a client's own claim, even one validly signed, is replaced", async () => {
    const claims: Record<string, string>[] = [
      {},
      { [CLIENT_ADDRESS_HEADER]: "203.0.113.1 Zm9yZ2Vk", "X-Forwarded-For": "203.0.113.1" },
      { [CLIENT_ADDRESS_HEADER]: signedClientAddress("203.0.113.1") ?? "" },
    ];
    for (const [i, claim] of claims.entries()) {
      const from = `127.0.0.${i + 2}`;
      await sendHttp(frontPort, "GET", "/inbox", claim, [], from);
      expect(addressesSeenByNext.at(-1), JSON.stringify(claim)).toBe(from);
    }
  });

  it("behind a trusted proxy (TRUST_PROXY), tells Next the address that proxy saw, not the client's claims", async () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    await send("GET", "/contacts", { "X-Forwarded-For": "6.6.6.6, 203.0.113.9" });
    expect(seenByNext.at(-1)?.forwardedFor).toBe("203.0.113.9");
  });

  it("tells Next the scheme only a trusted proxy reported (next-auth's Secure cookies depend on it)", () => {
    const req = (proto?: string) =>
      ({
        headers: { host: "dash.test", ...(proto ? { "x-forwarded-proto": proto } : {}) },
        socket: { remoteAddress: "127.0.0.1" },
      }) as unknown as http.IncomingMessage;
    expect(forwardedHeaders(req("https"))["x-forwarded-proto"]).toBe("http");
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(forwardedHeaders(req("https"))["x-forwarded-proto"]).toBe("https");
    expect(forwardedHeaders(req("https, http"))["x-forwarded-proto"]).toBe("http");
    expect(forwardedHeaders(req())["x-forwarded-proto"]).toBe("http");
  });

  it("drops hop-by-hop headers both ways", () => {
    expect(
      endToEnd({
        connection: "Upgrade, X-Private",
        upgrade: "h2c",
        "x-private": "1",
        "keep-alive": "5",
        accept: "*/*",
      }),
    ).toEqual({ accept: "*/*" });
  });

  it("passes a live stream on event by event, never holding it until it ends", async () => {
    const received: string[] = [];
    const req = http.get({ host: "127.0.0.1", port: frontPort, path: "/api/dashboard/live", agent: false });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on("response", resolve));
    expect(res.headers["content-type"]).toBe("text/event-stream");
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => received.push(chunk));
    await vi.waitFor(() => expect(received.join("")).toContain("event: ready"));
    liveStream?.write('data: {"kind":"message.created"}\n\n');
    await vi.waitFor(() => expect(received.join("")).toContain("message.created"));
    expect(liveStream?.writableEnded).toBe(false);
    liveStream?.end();
    await new Promise((resolve) => res.on("end", resolve));
  });

  it("keeps an idle connection open past Node's default 5 s, so a client's next request on it is answered", async () => {
    // A client (an end-to-end test, a load balancer) sends its next request on a connection idle
    // for longer than 5 s: with Node's default the server had closed it, and a request sent
    // just then got ECONNRESET.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.get({ port: frontPort, host: "127.0.0.1", path: "/api/v3/balance", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on("error", reject);
      });
    try {
      const first = await get();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(second.status).toBe(first.status);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it("answers 502 with a plain message while Next is not up", async () => {
    const down = createFrontServer(mounts, { host: "127.0.0.1", port: 1 });
    const port = await listen(down);
    const reply = await sendHttp(port, "GET", "/billing");
    await new Promise((resolve) => down.close(resolve));
    expect(reply.status).toBe(502);
    expect(reply.text).toMatch(/starting or unavailable/);
  });

  describe("one body limit for everything Next serves", () => {
    const LIMIT = 1024 * 1024;
    const MiB = 1024 * 1024;

    it("limits pages, sign-in and dashboard handlers to API_BODY_LIMIT_BYTES, the bulk upload to its own", () => {
      for (const p of ["/api/auth/callback/credentials", "/signup", "/tokens", "/api/dashboard/messages"]) {
        expect(nextBodyLimit(p), p).toBe(LIMIT);
      }
      expect(nextBodyLimit("/api/dashboard/contact-books/cb_1/contacts/bulk")).toBe(BULK_BODY_LIMIT_BYTES);
      expect(nextBodyLimit("/api/dashboard/contact-books/cb_1/contacts/bulk/x")).toBe(LIMIT);
    });

    it("4 parallel 256 MiB chunked sign-in bodies: 413 PAYLOAD_TOO_LARGE, Next handed at most the limit, memory flat", async () => {
      const path = "/api/auth/callback/credentials";
      bytesToNext.delete(path);
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 10);
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () =>
          postChunked(frontPort, path, { "Content-Type": "application/x-www-form-urlencoded" }, 256 * MiB),
        ),
      ).finally(() => clearInterval(sampler));
      for (const o of outcomes) {
        expect(o.status).toBe(413);
        expect(JSON.parse(o.text)).toMatchObject({
          success: false,
          error_code: "PAYLOAD_TOO_LARGE",
          details: { limitBytes: LIMIT },
        });
        // Answered long before the body's end.
        expect(o.sentBytes).toBeLessThan(64 * MiB);
      }
      // Each of the 4 requests reached Next with at most the limit (plus one chunk in flight).
      expect(bytesToNext.get(path) ?? 0).toBeLessThanOrEqual(4 * (LIMIT + 64 * 1024));
      expect(rssPeak - rssBefore).toBeLessThan(64 * MiB);
    });

    it("a declared Content-Length over the limit is 413 without asking Next; a page POST (server action) too", async () => {
      for (const path of ["/signup", "/api/dashboard/messages"]) {
        bytesToNext.delete(path);
        const big = "x".repeat(LIMIT + 1);
        const headers = { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": String(big.length) };
        const reply = await send("POST", path, headers, big);
        expect(reply.status, path).toBe(413);
        expect(JSON.parse(reply.text).error_code, path).toBe("PAYLOAD_TOO_LARGE");
        expect(bytesToNext.get(path), path).toBeUndefined();
      }
    });

    /**
     * A POST to the stand-in for Next that answers at once: `first` is sent, then (once that
     * answer has reached the front server) `rest`; resolves with what the client got.
     */
    async function afterAnEarlyAnswer(headers: Record<string, string>, first: Buffer, rest: Buffer[]) {
      bytesToNext.delete("/answers-early");
      const answeredByNext = new Promise<void>((resolve) => {
        earlyAnswered = resolve;
      });
      const req = http.request({ host: "127.0.0.1", port: frontPort, method: "POST", path: "/answers-early", headers });
      const reply = new Promise<{ status: number; text: string; complete: boolean }>((resolve, reject) => {
        req.on("response", (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => {
            text += d;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
        });
        req.on("error", reject);
      });
      req.write(first);
      await answeredByNext;
      // The answer crosses the loopback to the front server, in this same process.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const beforeTheRest = bytesToNext.get("/answers-early") ?? 0;
      // Sent until answered, as a client reading while it sends stops (the 413 comes mid-body).
      let replied = false;
      void reply.finally(() => {
        replied = true;
      });
      for (const piece of rest) {
        if (replied) break;
        if (!req.write(piece)) await Promise.race([new Promise((resolve) => req.once("drain", resolve)), reply]);
      }
      if (!replied) req.end();
      return { ...(await reply), beforeTheRest };
    }

    it("a page that answers before the body is in: over the limit still 413, within it the page's answer", async () => {
      // Next answers a server action it refuses before reading the body; the bench's sign-up
      // POST saw a reset in 1 of 30 tries when that answer beat the limit (2026-12-02).
      const over = await afterAnEarlyAnswer(
        { "Content-Type": "multipart/form-data; boundary=x" },
        Buffer.alloc(64 * 1024, 0x61),
        Array.from({ length: 4 }, () => Buffer.alloc(MiB, 0x61)),
      );
      expect(over.status).toBe(413);
      expect(JSON.parse(over.text).error_code).toBe("PAYLOAD_TOO_LARGE");
      expect(over.complete).toBe(true);
      // What came after Next's answer did not go to Next.
      expect(over.beforeTheRest).toBe(64 * 1024);
      expect(bytesToNext.get("/answers-early")).toBe(64 * 1024);

      const within = await afterAnEarlyAnswer({ "Content-Type": "text/plain" }, Buffer.alloc(10 * 1024, 0x61), [
        Buffer.alloc(100 * 1024, 0x61),
      ]);
      expect(within).toMatchObject({ status: 500, text: "refused by Next", complete: true });
      expect(bytesToNext.get("/answers-early")).toBe(10 * 1024);
      const none = await send("GET", "/answers-early");
      expect(none).toMatchObject({ status: 500, text: "refused by Next" });
    });

    it("after an early answer to a declared body, the next request is answered: the cut-short request to Next is never reused", async () => {
      // Ended short of its Content-Length, the request to Next would go back to the connection
      // pool with Next still reading its body: the next request on it would be read as the rest.
      const declared = await afterAnEarlyAnswer(
        { "Content-Type": "text/plain", "Content-Length": String(110 * 1024) },
        Buffer.alloc(10 * 1024, 0x61),
        [Buffer.alloc(100 * 1024, 0x61)],
      );
      expect(declared).toMatchObject({ status: 500, text: "refused by Next" });
      for (let i = 0; i < 3; i++) {
        const page = await send("GET", "/billing");
        expect(page).toMatchObject({ status: 200, text: "<h1>dashboard</h1>" });
      }
    });

    it("a client that sends its whole chunked body before reading gets the 413, not a reset", async () => {
      // The request to Next is cut at the limit (its socket "hangs up"); the 413 to the client is
      // not, until its body is in: a reset while it still sends would lose the answer.
      for (const path of ["/api/auth/callback/credentials", "/answers-early"]) {
        const reply = await sendHttp(
          frontPort,
          "POST",
          path,
          { "Content-Type": "application/x-www-form-urlencoded" },
          Array.from({ length: 8 }, () => "a".repeat(MiB)),
        );
        expect(reply.status, path).toBe(413);
        expect(JSON.parse(reply.text).error_code, path).toBe("PAYLOAD_TOO_LARGE");
      }
    });

    it("a client still sending a declared body after the 413 reads the answer, not a reset", async () => {
      // What curl, fetch and Playwright do: send the whole body, then read. The 413 arrives
      // mid-upload; the rest of the upload must still be taken (and dropped) so the client
      // reads the answer instead of EPIPE (the e2e upload test saw that race).
      bytesToNext.delete("/api/dashboard/contact-books/cb_1/contacts/bulk");
      const total = 12 * MiB;
      const piece = Buffer.alloc(MiB, 0x20);
      const req = http.request({
        host: "127.0.0.1",
        port: frontPort,
        method: "POST",
        path: "/api/dashboard/contact-books/cb_1/contacts/bulk",
        headers: { "Content-Type": "application/json", "Content-Length": String(total) },
      });
      const writeErrors: Error[] = [];
      req.on("error", (e) => writeErrors.push(e));
      const response = new Promise<http.IncomingMessage>((resolve) => req.on("response", resolve));
      req.write(piece);
      const res = await response; // answered before most of the body was sent
      for (let sent = MiB; sent < total; sent += MiB) {
        await new Promise<void>((resolve, reject) => req.write(piece, (e) => (e ? reject(e) : resolve())));
      }
      req.end();
      let text = "";
      res.setEncoding("utf8");
      for await (const chunk of res) text += chunk;
      expect(writeErrors).toEqual([]);
      expect(res.statusCode).toBe(413);
      expect(JSON.parse(text)).toMatchObject({
        error_code: "PAYLOAD_TOO_LARGE",
        details: { limitBytes: BULK_BODY_LIMIT_BYTES },
      });
      expect(bytesToNext.get("/api/dashboard/contact-books/cb_1/contacts/bulk") ?? 0).toBe(0);
    });

    it("passes a body under the limit whole, and a bulk upload up to the bulk limit", async () => {
      const form = `email=a%40b.test&password=${"p".repeat(1000)}`;
      const signIn = await send("POST", "/api/auth/callback/credentials", {}, form);
      expect(signIn.status).toBe(200);
      expect(seenByNext.at(-1)?.body).toBe(form);
      const path = "/api/dashboard/contact-books/cb_1/contacts/bulk";
      const bulk = await postChunked(frontPort, path, { "Content-Type": "application/json" }, 3 * MiB);
      expect(bulk.status).toBe(200);
      expect(bytesToNext.get(path)).toBe(3 * MiB);
    });
  });
});
