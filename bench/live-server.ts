// One instance for bench/live.ts: the live stream of lib/domains/live (what
// GET /api/dashboard/live returns, without Next's session read in front) for the member
// BENCH_USER_ID of BENCH_CUSTOMER_ID in the session BENCH_SESSION_ID on GET /live; POST
// /inbound, which takes a signed provider callback through the real endpoint (stored, its
// NOTIFY committed: answered then); and the real callback processor (lib/ingest/processor.ts,
// as lib/background.ts runs it), woken by that NOTIFY over this process's one listening
// connection, the same one that carries the live notices.
import http from "node:http";
import { Readable } from "node:stream";
import { liveClientCount } from "@/lib/domains/live/hub";
import { openLiveStream } from "@/lib/domains/live/stream";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";
import { startCallbackProcessor } from "@/lib/ingest/processor";

const session = {
  userId: process.env.BENCH_USER_ID ?? "",
  customerId: process.env.BENCH_CUSTOMER_ID ?? "",
  sessionId: process.env.BENCH_SESSION_ID ?? "",
};

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const server = http.createServer(async (req, res) => {
  try {
    if (req.url === "/live") {
      const p = await principalForSession(session);
      if (!p) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" });
      const body = Readable.fromWeb(openLiveStream(p) as import("node:stream/web").ReadableStream<Uint8Array>);
      body.pipe(res);
      res.on("close", () => body.destroy());
      return;
    }
    if (req.url === "/inbound" && req.method === "POST") {
      const body = await readBody(req);
      const answer = await handleProviderWebhook(
        new Request("http://bench/api/provider/webhook", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-hub-signature-256": String(req.headers["x-hub-signature-256"]),
          },
          body,
        }),
      );
      res.writeHead(answer.status).end();
      return;
    }
    if (req.url === "/streams") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ streams: liveClientCount() }));
      return;
    }
    res.writeHead(404).end();
  } catch (error) {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});
server.listen(Number(process.env.PORT), "127.0.0.1");
const processor = startCallbackProcessor();
process.on("SIGTERM", () => {
  void processor.stop().finally(() => process.exit(0));
});
