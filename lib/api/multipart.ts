// Reading a multipart/form-data upload as it streams (docs/openapi.md "Uploads"): busboy
// parses the parts; the one file part is handed to the route's `receive` (which streams it
// somewhere and may refuse it early), the text fields are collected. Nothing is buffered whole.
// A refused upload is not parsed on: the node:http servers read and drop what the client still
// sends before they close the connection, so it reads its answer (lib/http/unread-body.ts).
import { once } from "node:events";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { RequestAbortedError } from "@/lib/core/bounded-read";
import { ApiError } from "@/lib/core/errors";

export type UploadInfo = { filename: string | null; mimeType: string };
export type Received = { discard: () => Promise<void> };

export type MultipartOptions<R extends Received> = {
  /** The form field of the file. */
  field: string;
  /** The largest body read (the largest file and the multipart overhead). */
  maxBytes: number;
  receive: (file: Readable, info: UploadInfo) => Promise<R>;
};

export type MultipartInput<R> = { fields: Record<string, string>; file: R | undefined };

export const isMultipart = (request: Request) =>
  /^multipart\/form-data\b/i.test(request.headers.get("content-type")?.trim() ?? "");

const malformed = (why: string) => new ApiError("VALIDATION_FAILED", `Malformed multipart body: ${why}`);

export async function readMultipart<R extends Received>(
  request: Request,
  options: MultipartOptions<R>,
): Promise<MultipartInput<R>> {
  if (!isMultipart(request)) {
    throw new ApiError("UNSUPPORTED_CONTENT_TYPE", "This endpoint accepts only Content-Type: multipart/form-data");
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const tooLarge = () =>
    new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${options.maxBytes} bytes`, {
      limitBytes: options.maxBytes,
    });
  if (declared > options.maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!request.body) throw malformed(`no part named ${options.field}`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { fields: 20, fieldSize: 4096, fieldNameSize: 100, files: 1, parts: 30, headerPairs: 50 },
    });
  } catch {
    throw malformed("the Content-Type has no boundary");
  }
  const reader = request.body.getReader();
  const fields: Record<string, string> = {};
  let file: R | undefined;
  let receiving: Promise<void> | undefined;
  let failure: unknown;
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = (error) => {
      failure ??= error;
      reject(failure);
    };
  });
  failed.catch(() => {});

  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) fail(malformed(`the field ${name.slice(0, 100)} is too long`));
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== options.field || receiving) {
      stream.resume();
      fail(new ApiError("VALIDATION_FAILED", `An upload carries one file, in the field "${options.field}"`));
      return;
    }
    receiving = options
      .receive(stream, { filename: info.filename || null, mimeType: info.mimeType })
      .then((received) => {
        file = received;
        if (failure) void received.discard();
      }, fail);
  });
  for (const limit of ["fieldsLimit", "partsLimit", "filesLimit"] as const) {
    parser.on(limit, () =>
      fail(
        new ApiError(
          "VALIDATION_FAILED",
          `An upload carries one file, in the field "${options.field}", and a few text fields`,
        ),
      ),
    );
  }
  parser.on("error", (error: Error) => fail(malformed(error.message)));
  const closed = once(parser, "close");
  closed.catch(() => {});

  let size = 0;
  const pump = async () => {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        throw new RequestAbortedError(error);
      });
      if (failure) return;
      if (done) {
        parser.end();
        return;
      }
      size += value.byteLength;
      if (size > options.maxBytes) throw tooLarge();
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), failed]);
    }
  };

  try {
    await Promise.race([pump().then(() => closed), failed]);
    await Promise.race([receiving, failed]);
  } catch (error) {
    fail(error);
    await file?.discard();
    // Not parsed on; the server drops what the client still sends (lib/http/unread-body.ts).
    void reader.cancel().catch(() => {});
    throw failure;
  }
  return { fields, file };
}
