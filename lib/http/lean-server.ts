// The lean node:http server: the public API and the provider callback endpoint, with
// no Next.js in the path.
import http from "node:http";
import { handleApiRequest } from "@/lib/api/router";
import { RequestAbortedError } from "@/lib/core/bounded-read";
import { clientIpFrom } from "@/lib/core/client-ip";
import { errorAnswer } from "@/lib/core/error-answer";
import { log } from "@/lib/core/log";
import { sendWebResponse, toWebRequest } from "./node-adapter";
import { bodyStillArriving, endAfterBody } from "./unread-body";

export type Mount = { prefix: string; handle: (request: Request, clientIp: string) => Promise<Response> };

export const apiMount: Mount = {
  prefix: "/api/v",
  handle: (request, clientIp) => handleApiRequest(request, { clientIp }),
};

/**
 * How long an idle kept-alive connection stays open: longer than the idle time of the clients
 * and proxies in front (60 s on common load balancers). With Node's default of 5 s, a client
 * that sent its next request on an idle connection just as the server closed it got
 * ECONNRESET (an end-to-end test's API call 10 s after its previous one, on a busy machine).
 * headersTimeout stays above it, as Node requires.
 */
export const IDLE_KEEP_ALIVE_MS = 65_000;

/** A server that keeps idle connections IDLE_KEEP_ALIVE_MS. */
export function keepingConnections(server: http.Server): http.Server {
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
  server.headersTimeout = IDLE_KEEP_ALIVE_MS + 1_000;
  return server;
}

export function createLeanServer(mounts: Mount[] = [apiMount]): http.Server {
  return keepingConnections(http.createServer(leanRequestListener(mounts)));
}

/** The lean server's request handling, for servers that serve more (lib/http/front-server.ts). */
export function leanRequestListener(mounts: Mount[] = [apiMount]): http.RequestListener {
  return async (req, res) => {
    try {
      const request = toWebRequest(req, `http://${req.headers.host ?? "localhost"}`);
      const clientIp = clientIpFrom(request.headers.get("x-forwarded-for"), req.socket.remoteAddress);
      const path = req.url ?? "/";
      const mount = mounts.find((m) => path.startsWith(m.prefix));
      const response = mount ? await mount.handle(request, clientIp) : await handleApiRequest(request, { clientIp });
      // A body the handler did not read whole: let go of it; if more is still arriving, the
      // answer closes the connection once it is in, never with the client's bytes unread.
      if (request.body && !request.body.locked) await request.body.cancel().catch(() => {});
      if (bodyStillArriving(req)) {
        await sendWebResponse(res, response, {
          extraHeaders: { Connection: "close" },
          end: (chunk) => endAfterBody(req, res, chunk),
        });
      } else {
        req.resume();
        await sendWebResponse(res, response);
      }
    } catch (caught) {
      // The router answers its own errors; what reaches here failed around it (reading or writing the socket).
      const error = errorAnswer(caught);
      if (error.unexpected) log.error({ err: caught }, "lean server failure");
      else if (caught instanceof RequestAbortedError)
        log.debug({ url: req.url }, "the client closed the request mid-body");
      if (!res.headersSent) res.writeHead(error.status, { "Content-Type": "application/json", ...error.headers });
      res.end(
        JSON.stringify({ success: false, message: error.message, error_code: error.code, details: error.details }),
      );
    }
  };
}
