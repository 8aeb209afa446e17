// Reads a byte stream up to a limit while it arrives: a body over the limit (chunked, or
// with a Content-Length that lies) is refused after `limit` bytes, never buffered whole.
import { ApiError } from "./errors";

export class TooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body exceeds the limit of ${limitBytes} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * The body stopped before its end: the client closed or reset the connection mid-request
 * (node:http's "aborted", ECONNRESET). The client's doing, not ours: a 400 nobody reads, and
 * a debug line in the log instead of an error with a stack.
 */
export class RequestAbortedError extends ApiError {
  constructor(cause: unknown) {
    super("VALIDATION_FAILED", "The request body ended before it was complete (the client closed the connection)");
    this.name = "RequestAbortedError";
    this.cause = cause;
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
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw new RequestAbortedError(error);
    });
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
