// The one public port of `npm start`: the public API and the provider callback endpoint are
// served here directly (the lean router, with the client address from the socket), and
// everything else (dashboard pages, next-auth, app/api/dashboard) is passed to the Next
// server on a loopback port, with the client's address signed for it (lib/core/client-ip.ts:
// Next's handlers never see the socket, and Next keeps a client's own X-Forwarded-For).
// Here the X-Forwarded-* headers and the address Next sees are always ours.
// Bodies bound for Next are counted here while they stream (Next would buffer any size:
// a 256 MiB sign-in form took next-server from 357 MB to 2.58 GB): over the limit, the rest
// never reaches Next and the client gets 413 PAYLOAD_TOO_LARGE.
import http from "node:http";
import { pipeline, Transform } from "node:stream";
import { TooLargeError } from "@/lib/core/bounded-read";
import { CLIENT_ADDRESS_HEADER, clientIpFrom, signedClientAddress } from "@/lib/core/client-ip";
import { env } from "@/lib/core/env";
import { errorAnswer } from "@/lib/core/error-answer";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { BULK_BODY_LIMIT_BYTES } from "@/lib/domains/contacts/schemas";
import { keepingConnections, leanRequestListener, type Mount } from "./lean-server";
import { dropRestOfBody, endAfterBody } from "./unread-body";

/** Paths the lean router serves: /api/v2..., /api/v3..., /api/provider/webhook, /graph/... (provider SDKs). */
export const servesDirectly = (path: string) =>
  /^\/api\/(v2|v3|provider\/webhook)(\/|\?|$)/.test(path) || /^\/graph(\/|\?|$)/.test(path);

/** The only /api paths Next serves: next-auth and the dashboard's own handlers. */
const servedByNext = (path: string) => /^\/api\/(auth|dashboard)(\/|\?|$)/.test(path);

/**
 * Every other /api path (/api/v4/..., /api/whatever) is answered by the router too: its
 * 404 envelope (docs/architecture.md "Errors"), never Next's login redirect or HTML page.
 */
export const answersDirectly = (path: string) =>
  servesDirectly(path) || (/^\/api(\/|\?|$)/.test(path) && !servedByNext(path));

const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"];

/** A message's headers without the hop-by-hop ones (those named in Connection included). */
export function endToEnd(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out = { ...headers };
  for (const h of [...HOP_BY_HOP, ...named]) delete out[h];
  return out;
}

/**
 * What Next is told about the client: one address (resolved as the API resolves it), also
 * signed in CLIENT_ADDRESS_HEADER, which is what Next's handlers believe (a client's own copy
 * is replaced, or dropped when there is no NEXTAUTH_SECRET to sign with).
 */
export function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const claimed = req.headers["x-forwarded-for"];
  const address = clientIpFrom(Array.isArray(claimed) ? claimed.join(", ") : claimed, req.socket.remoteAddress);
  const signed = signedClientAddress(address);
  return {
    "x-forwarded-for": address,
    "x-forwarded-host": req.headers.host ?? "localhost",
    // Behind a trusted TLS-terminating proxy, the scheme it saw (next-auth's Secure cookies).
    "x-forwarded-proto": forwardedProto(req),
    ...(signed ? { [CLIENT_ADDRESS_HEADER]: signed } : {}),
  };
}

/** The client's end-to-end headers, its own address claims replaced by ours. */
function headersForNext(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = endToEnd(req.headers);
  delete headers[CLIENT_ADDRESS_HEADER];
  return { ...headers, ...forwardedHeaders(req) };
}

/** "https" only when a trusted proxy (TRUST_PROXY) says so in its X-Forwarded-Proto entry. */
function forwardedProto(req: http.IncomingMessage): string {
  const claimed = req.headers["x-forwarded-proto"];
  const last = (Array.isArray(claimed) ? claimed.join(",") : claimed)?.split(",").at(-1)?.trim().toLowerCase();
  return env().TRUST_PROXY && last === "https" ? "https" : "http";
}

/**
 * The largest body a path Next serves may carry: API_BODY_LIMIT_BYTES, as the public API's
 * default, for pages (server actions), sign-in and the dashboard handlers; the dashboard's
 * bulk contact upload (the API's bulk route served to the session) the API's bulk limit (the
 * router checks the route's own limit again).
 */
export function nextBodyLimit(path: string): number {
  return /^\/api\/dashboard\/contact-books\/[^/?]+\/contacts\/bulk(\?|$)/.test(path)
    ? BULK_BODY_LIMIT_BYTES
    : env().API_BODY_LIMIT_BYTES;
}

/** 413 with the dashboard handlers' body; what is still arriving is read and dropped, never held (./unread-body.ts). */
function refuseTooLarge(req: http.IncomingMessage, res: http.ServerResponse, limit: number): void {
  if (res.headersSent) {
    req.resume();
    res.destroy();
    return;
  }
  const error = errorAnswer(
    new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${limit} bytes`, { limitBytes: limit }),
  );
  const body = JSON.stringify({
    success: false,
    message: error.message,
    error_code: error.code,
    details: error.details,
  });
  answerThenClose(req, res, error.status, "application/json; charset=utf-8", body);
}

/** 502 while Next is down or starting. */
function answerUnavailable(req: http.IncomingMessage, res: http.ServerResponse): void {
  const text = "The dashboard is starting or unavailable; try again in a moment.";
  answerThenClose(req, res, 502, "text/plain; charset=utf-8", text);
}

/**
 * This server's own answer, the connection closed once the client's body is in (./unread-body.ts).
 * With its length: a client that reads while it sends has the whole answer at once and stops
 * sending, though the response itself ends only after the body.
 */
function answerThenClose(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  contentType: string,
  body: string,
): void {
  res.writeHead(status, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  endAfterBody(req, res, body);
}

/** Passes the request to Next, its body counted on the way (refused past `nextBodyLimit`). */
function forwardToNext(req: http.IncomingMessage, res: http.ServerResponse, next: { host: string; port: number }) {
  const limit = nextBodyLimit(req.url ?? "/");
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    refuseTooLarge(req, res, limit);
    return;
  }
  const upstream = http.request(
    {
      host: next.host,
      port: next.port,
      method: req.method,
      path: req.url,
      headers: headersForNext(req),
    },
    (answer) => {
      answered = true;
      if (refused) {
        answer.resume();
        return;
      }
      if (req.readableEnded) relay(answer);
      else relayAfterBody(answer);
    },
  );
  // Set once the body went over the limit and this server answers 413 itself.
  let refused = false;
  // Set once Next answered (its answer relayed, or held until the body is in).
  let answered = false;
  let received = 0;
  const relay = (answer: http.IncomingMessage) => {
    res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
    // A failure mid-body (Next reset, client gone) cuts the response: never a clean end
    // of a truncated download.
    pipeline(answer, res, (error) => {
      if (error) res.destroy(error);
      // The request to Next left unfinished (relayAfterBody) is closed, never pooled.
      if (!upstream.writableFinished) upstream.destroy();
    });
  };
  /**
   * Next answered before the body was in (a server action it refuses answers at once): the
   * rest of the body no longer goes to Next, is counted and dropped, and the answer waits for
   * its end, so a body over the limit is a 413 however soon Next answered (the bench's
   * 24 MiB sign-up POST had Next's early answer cut in 1 of 30 tries, 2026-12-02). The request
   * to Next is left unfinished and closed after the answer: ended short of the body it declared,
   * its connection would go back to the pool with Next still reading that body, and the next
   * request on it would be read as the rest. A client that does not finish its body within the
   * unread-body bound (./unread-body.ts) is cut, as the 413 would cut it.
   */
  const relayAfterBody = (answer: http.IncomingMessage) => {
    req.unpipe(counted);
    // Held, not yet read: a reset of Next's connection meanwhile is seen at the body's end.
    answer.on("error", () => {});
    dropRestOfBody(req, limit - received, {
      end: () => {
        if (!answer.errored) return relay(answer);
        upstream.destroy();
        answerUnavailable(req, res);
      },
      over: () => {
        refused = true;
        upstream.destroy();
        refuseTooLarge(req, res, limit);
      },
      gone: () => {
        upstream.destroy();
        res.destroy();
      },
    });
  };
  upstream.on("error", (error) => {
    // Refused here: the request to Next is cut on purpose (as "socket hang up", not always the
    // TooLargeError), and the 413 must not be cut with it: it ends once the client's body is in,
    // and destroying it meanwhile reset the client's connection before it read the answer.
    // Answered: the answer's own stream says whether it was cut (relay).
    if (refused || answered || error instanceof TooLargeError) return;
    if (res.destroyed) return; // the client left first
    if (res.headersSent) {
      res.destroy(error);
      return;
    }
    log.warn({ err: error }, "the Next server did not answer");
    answerUnavailable(req, res);
  });
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      // Before the error reaches the request to Next and cuts it (its "error" handler above).
      if (received > limit) refused = true;
      done(refused ? new TooLargeError(limit) : null, chunk);
    },
  });
  // Not pipeline(req, ...): it would destroy the client's socket before the 413 is written.
  req.pipe(counted);
  pipeline(counted, upstream, (error) => {
    if (!error) return;
    req.unpipe(counted);
    // Over the limit: refused here. Next unreachable or gone, or the client gone: answered
    // (or not) by the handlers above; the rest of the body is dropped.
    if (error instanceof TooLargeError) refuseTooLarge(req, res, limit);
    else req.resume();
  });
}

export function createFrontServer(mounts: Mount[], next: { host: string; port: number }): http.Server {
  const direct = leanRequestListener(mounts);
  return keepingConnections(
    http.createServer((req, res) => {
      if (answersDirectly(req.url ?? "/")) {
        direct(req, res);
        return;
      }
      forwardToNext(req, res, next);
    }),
  );
}
