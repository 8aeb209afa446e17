// Reads a byte stream up to a limit while it arrives: a body over the limit (chunked, or
// with a Content-Length that lies) is refused after `limit` bytes, never buffered whole.

export class TooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body exceeds the limit of ${limitBytes} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * The stream's bytes, or a TooLargeError as soon as more than `limit` arrived (the
 * stream is cancelled: the rest is never read). A declared length over the limit fails
 * before reading anything.
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  declaredLength?: string | null,
): Promise<Buffer> {
  if (Number(declaredLength ?? 0) > limit) throw new TooLargeError(limit);
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
