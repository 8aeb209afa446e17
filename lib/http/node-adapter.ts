// node:http <-> Web Request/Response, for the lean server that mounts the same
// handlers as Next, several times the throughput of a Next route handler (docs/architecture.md "The front server").
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { jsonTextOf } from "@/lib/api/envelope";
import { nodeBodyOf } from "@/lib/api/file-response";

export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    else if (v !== undefined) headers.set(k, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? bodyOf(req) : undefined,
    // @ts-expect-error Node's fetch needs duplex for streamed bodies
    duplex: hasBody ? "half" : undefined,
  });
}

/**
 * The request's body as a Web stream, read as the handler pulls it. Cancelled (a body over its
 * limit), it lets go of the request without destroying it: the server then reads the rest and
 * drops it before closing (./unread-body.ts), where Readable.toWeb would destroy the socket
 * with the client's bytes unread, and the client would see a reset instead of the 413.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  let onData: (chunk: Buffer) => void = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        };
        req.pause();
        req.on("data", onData);
        req.once("end", () => {
          if (open) controller.close();
          open = false;
        });
        req.once("error", (error) => {
          if (open) controller.error(error);
          open = false;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        req.off("data", onData);
        req.pause();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

/**
 * Writes `response` to `res`; `end` ends it (by default at once: the lean server passes one
 * that waits for an unread request body first, ./unread-body.ts), `extraHeaders` join its own.
 */
export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  options: { extraHeaders?: Record<string, string>; end?: (chunk?: string | Buffer) => void } = {},
): Promise<void> {
  const end = options.end ?? ((chunk?: string | Buffer) => res.end(chunk));
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  // The router's JSON answers: the text they were built from, without reading the body back.
  const text = jsonTextOf(response);
  if (text !== undefined) {
    // Its length said up front: a client has the whole answer even while the connection stays
    // open for the rest of its own body (./unread-body.ts).
    res.writeHead(response.status, {
      ...headers,
      "content-length": String(Buffer.byteLength(text)),
      ...options.extraHeaders,
    });
    end(text);
    return;
  }
  res.writeHead(response.status, { ...headers, ...options.extraHeaders });
  if (!response.body) {
    end();
    return;
  }
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  // A file's stream (lib/api/file-response.ts) goes to the socket as it is; any other body
  // through web streams. Either way at the client's pace (a slow reader holds no more than a
  // stream's buffer), and a client that leaves stops the read.
  const body = nodeBodyOf(response) ?? Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  try {
    await pipeline(body, res, { end: false });
  } catch (error) {
    if (!res.destroyed) res.destroy(error as Error);
    return;
  }
  end();
}
