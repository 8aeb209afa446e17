// One browser tab's live stream (docs/inbox.md "Live updates"): a Server-Sent Events body
// for a signed-in member. It opens with `ready` (the page refetches what it shows: anything
// may have changed while it was not connected), then carries the notices this member may
// receive, `resync` when notices may have been lost, `ping` each time the member's session
// was checked and still holds (the heartbeat: the browser reconnects a stream silent for
// much longer than `ready` says), and `end` with the reason when the stream ends (the session
// ended, the member's access changed, or the stream reached MAX_STREAM_MS): the browser
// reconnects, and is signed in again with its current access, or refused.
import { log } from "@/lib/core/log";
import type { Principal } from "@/lib/domains/auth/principal";
import { addLiveClient, type LiveClient, liveCheckInterval } from "./hub";
import { SSE_PING, sseEvent, sseOpening } from "./sse";

/** The browser's own wait before it reconnects a dropped stream (use-live-updates.ts reconnects first, with backoff). */
const RETRY_MS = 3_000;
const MAX_STREAM_MS = 10 * 60_000;
/** A client this far behind (bytes queued, unread) is cut off; it reconnects and refetches. */
const MAX_QUEUED_BYTES = 256 * 1024;

export function openLiveStream(p: Principal, opts: { maxMs?: number } = {}): ReadableStream<Uint8Array> {
  let remove = () => {};
  let lifetime: NodeJS.Timeout | undefined;
  let closed = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const close = () => {
          if (closed) return;
          closed = true;
          remove();
          clearTimeout(lifetime);
          try {
            controller.close();
          } catch {
            // already closed by the reader going away
          }
        };
        const write = (bytes: Uint8Array) => {
          if (closed) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) {
            log.debug({ userId: p.userId }, "live stream too far behind; closed (the browser reconnects)");
            close();
            return;
          }
          controller.enqueue(bytes);
        };
        const client: LiveClient = {
          principal: p,
          deliver: write,
          resync: () => write(sseEvent({}, "resync")),
          heartbeat: () => write(SSE_PING),
          end: (reason) => {
            write(sseEvent({ reason }, "end"));
            close();
          },
        };
        controller.enqueue(sseOpening(RETRY_MS));
        controller.enqueue(sseEvent({ heartbeatMs: liveCheckInterval() }, "ready"));
        remove = addLiveClient(client);
        lifetime = setTimeout(() => client.end("renew"), opts.maxMs ?? MAX_STREAM_MS);
        lifetime.unref();
      },
      cancel() {
        closed = true;
        remove();
        clearTimeout(lifetime);
      },
    },
    // Counted in bytes, so MAX_QUEUED_BYTES means what it says.
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
}
