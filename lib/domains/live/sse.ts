// The Server-Sent Events wire format of the live stream (docs/inbox.md "Live updates").

const encoder = new TextEncoder();

/** One event: an optional name and a JSON body (one `data:` line: JSON has no raw newlines). */
export function sseEvent(data: unknown, name?: string): Uint8Array {
  return encoder.encode(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

/** A comment line: keeps proxies and the browser from timing the idle stream out. */
export const SSE_HEARTBEAT = encoder.encode(": ping\n\n");

/** The first bytes: how long the browser waits before reconnecting, then `ready`. */
export const sseOpening = (retryMs: number) => encoder.encode(`retry: ${retryMs}\n\n`);
