// A file streaming in (an upload's part, a download from the provider) is written to a
// staging file while its type is detected from its first bytes, its size counted against its
// kind's limit and its SHA-256 computed (docs/media.md "Storage"). Nothing is buffered whole
// and nothing reaches the store: a file refused on the way is read no further than its limit
// and its staging file is removed.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/core/errors";
import { stagingDir } from "@/lib/storage";
import { DETECTION_BYTES, type DetectedType, detectType } from "./detect";
import { formatFileSize, maxBytesOf, tooLargeMessage } from "./kinds";

export type StagedFile = {
  path: string;
  size: number;
  sha256: string;
  type: DetectedType;
  filename: string | null;
  /** Removes the staging file (no error when it was moved into the store already). */
  discard: () => Promise<void>;
};

export type StageOptions = {
  /** Declared so far: the part's Content-Type, or the form's `type` when it came first. */
  declaredType?: string;
  filename?: string | null;
  /** The file must be this type (a download checked against the provider's description), else refused. */
  expect?: (type: DetectedType) => void;
};

/**
 * The quota refusal, worded once (docs/media.md "Quota"): what the account keeps of its quota
 * in the account page's units (a whole-MB rounding said "1 MB of its 1 MB" of an account at
 * 600 KB), and, when the file was read, its size: the file that does not fit.
 */
export function quotaExceeded(quotaBytes: number, usedBytes: number, fileBytes?: number): ApiError {
  const keeps = `keeps ${formatFileSize(usedBytes)} of its ${formatFileSize(quotaBytes)} of media; delete files or ask for a larger quota`;
  const message =
    fileBytes === undefined
      ? `The account ${keeps}`
      : `This file (${formatFileSize(fileBytes)}) does not fit: the account ${keeps}`;
  return new ApiError("MEDIA_QUOTA_EXCEEDED", message, { quotaBytes, usedBytes });
}

/**
 * Streams `source` into a staging file. Throws MEDIA_TYPE_NOT_SUPPORTED after the first
 * bytes and MEDIA_TOO_LARGE (details: kind, maxBytes) as soon as the file passes its limit;
 * the source is not read on.
 */
export async function stageFile(source: AsyncIterable<Uint8Array>, options: StageOptions = {}): Promise<StagedFile> {
  const dir = stagingDir();
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${Date.now()}-${randomBytes(8).toString("hex")}`);
  const discard = () => fs.promises.rm(file, { force: true });
  const handle = await fs.promises.open(file, "wx", 0o600);
  const hash = createHash("sha256");
  let size = 0;
  let type: DetectedType | undefined;
  let limit = Number.POSITIVE_INFINITY;
  let head: Buffer[] = [];
  let headSize = 0;

  const write = async (chunk: Buffer) => {
    size += chunk.length;
    if (type && size > limit) throw tooLarge(type, limit);
    hash.update(chunk);
    await handle.write(chunk);
  };
  const decide = async () => {
    const first = Buffer.concat(head, headSize);
    type = await detectType(first.subarray(0, DETECTION_BYTES), {
      type: options.declaredType,
      filename: options.filename,
    });
    options.expect?.(type);
    limit = maxBytesOf(type.kind, type.animated);
    head = [];
    await write(first);
  };

  try {
    for await (const piece of source) {
      const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      if (type) {
        await write(chunk);
        continue;
      }
      head.push(chunk);
      headSize += chunk.length;
      if (headSize >= DETECTION_BYTES) await decide();
    }
    if (!type) await decide();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => {});
    await discard();
    throw error;
  }
  return {
    path: file,
    size,
    sha256: hash.digest("hex"),
    type: type as DetectedType,
    filename: options.filename ?? null,
    discard,
  };
}

function tooLarge(type: DetectedType, maxBytes: number): ApiError {
  return new ApiError("MEDIA_TOO_LARGE", tooLargeMessage(type.kind, maxBytes), { kind: type.kind, maxBytes });
}
