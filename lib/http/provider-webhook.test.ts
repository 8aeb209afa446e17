// The unauthenticated callback endpoint counts the body while it streams;
// a chunked (or mis-declared) body over the limit is refused without being read whole.
import { describe, expect, it } from "vitest";
import { handleProviderWebhook, MAX_BODY_BYTES } from "./provider-webhook";

/** 32 MiB in chunks, counting what was pulled. */
function endless(chunkBytes = 64 * 1024) {
  const state = { pulled: 0 };
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= 32 * 1024 * 1024) return controller.close();
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  handleProviderWebhook(
    new Request("http://localhost/api/provider/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": "sha256=00", ...headers },
      body,
      // @ts-expect-error Node's fetch needs duplex for streamed bodies
      duplex: "half",
    }),
  );

describe("provider callback body limit", () => {
  it("a 32 MiB chunked body gets 413 after the limit, not after reading it all", async () => {
    const { stream, state } = endless();
    const res = await post(stream);
    expect(res.status).toBe(413);
    expect(state.pulled).toBeGreaterThan(MAX_BODY_BYTES);
    expect(state.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 64 * 1024);
  });

  it("a Content-Length that understates the body does not lift the limit", async () => {
    const { stream, state } = endless();
    const res = await post(stream, { "Content-Length": "100" });
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 64 * 1024);
  });

  it("a declared length over the limit is refused before reading", async () => {
    const { stream, state } = endless();
    const res = await post(stream, { "Content-Length": String(MAX_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(state.pulled).toBe(0);
  });
});
