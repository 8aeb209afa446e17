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
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    // @ts-expect-error Node's fetch needs duplex for streamed bodies
    duplex: hasBody ? "half" : undefined,
  });
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  // The router's JSON answers: the text they were built from, without reading the body back.
  const text = jsonTextOf(response);
  if (text !== undefined) {
    res.end(text);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  // A file's stream (lib/api/file-response.ts) goes to the socket as it is; any other body
  // through web streams. Either way at the client's pace (a slow reader holds no more than a
  // stream's buffer), and a client that leaves stops the read.
  const body = nodeBodyOf(response) ?? Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  await pipeline(body, res).catch((error: unknown) => {
    if (!res.destroyed) res.destroy(error as Error);
  });
}
