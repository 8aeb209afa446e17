// A Response carrying a file's bytes as a stream (the media content route). The node:http
// servers pipe the Node stream it was built from straight to the socket, with backpressure
// (lib/http/node-adapter.ts), instead of reading it back through web streams; every other
// reader (Next's route handlers, the tests) reads the Response's own body, which wraps the
// Node stream only when first read (so the two never compete for its chunks).
import type { Readable } from "node:stream";

const nodeBodies = new WeakMap<Response, Readable>();

/** The Node stream a Response from fileResponse() carries, if it is one. */
export const nodeBodyOf = (response: Response): Readable | undefined => nodeBodies.get(response);

export function fileResponse(status: number, headers: Record<string, string>, body: Readable | null): Response {
  if (!body) return new Response(null, { status, headers });
  let chunks: AsyncIterator<Buffer> | undefined;
  const web = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= body[Symbol.asyncIterator]();
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      cancel() {
        body.destroy();
      },
    },
    // Nothing is pulled before a reader asks: a server piping the Node stream never starts it.
    { highWaterMark: 0 },
  );
  const response = new Response(web, { status, headers });
  nodeBodies.set(response, body);
  return response;
}
