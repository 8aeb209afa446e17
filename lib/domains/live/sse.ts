// The Server-Sent Events wire format of the live stream (docs/inbox.md "Live updates").

const encoder = new TextEncoder();

/** One event: an optional name and a JSON body (one `data:` line: JSON has no raw newlines). */
export function sseEvent(data: unknown, name?: string): Uint8Array {
  return encoder.encode(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

/**
 * The heartbeat: keeps proxies from timing the idle stream out, and tells the browser the
 * stream is alive (an event, not a comment, so the page can see it and the tests count it).
 */
export const SSE_PING = encoder.encode("event: ping\ndata: {}\n\n");

/** The first bytes: how long the browser waits before reconnecting, then `ready`. */
export const sseOpening = (retryMs: number) => encoder.encode(`retry: ${retryMs}\n\n`);
