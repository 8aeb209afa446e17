// Reads a live stream (lib/domains/live/stream.ts) as the browser's EventSource would: each
// Server-Sent Event parsed into {event, data}, collected as it arrives.
export type ReceivedEvent = { event: string; data: Record<string, unknown> };

export type LiveReader = {
  events: ReceivedEvent[];
  closed: boolean;
  of(kind: string): ReceivedEvent[];
  stop(): Promise<void>;
};

export function readLive(stream: ReadableStream<Uint8Array>): LiveReader {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const out: LiveReader = {
    events: [],
    closed: false,
    of: (kind) => out.events.filter((e) => e.event === kind || e.data.kind === kind),
    stop: async () => {
      await reader.cancel().catch(() => {});
    },
  };
  let buffer = "";
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        let event = "message";
        let data: string | undefined;
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data = line.slice(6);
        }
        if (data !== undefined) out.events.push({ event, data: JSON.parse(data) });
      }
    }
    out.closed = true;
  })();
  return out;
}
