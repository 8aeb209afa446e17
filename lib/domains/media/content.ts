// GET /media/{mediaId}/content (docs/media.md "API"): the bytes of a ready file, streamed from
// the store, typed (never sniffed), with the sha256 as ETag, one Range as 206 (416 outside
// the file), and a Content-Disposition that downloads documents and shows the rest.
import type { Readable } from "node:stream";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import type { Principal } from "@/lib/domains/auth/principal";
import { getStorage } from "@/lib/storage";
import { objectKey } from "./objects";
import type { MediaRow } from "./serializers";
import { findMedia, mediaNotFound } from "./service";
import { signedContentValid } from "./signed-url";

export type ContentRequest = {
  range?: string | null;
  ifNoneMatch?: string | null;
  ifRange?: string | null;
  /** HEAD: the headers only, the store is not read. */
  head?: boolean;
  /** A signed link's parameters (the provider mount's url), checked when present. */
  signed?: { expires?: number; signature?: string };
};

export type ContentAnswer = { status: 200 | 206 | 304; headers: Record<string, string>; body: Readable | null };

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "audio/aac": "aac",
  "audio/amr": "amr",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "text/plain": "txt",
  "application/msword": "doc",
  "application/vnd.ms-excel": "xls",
  "application/vnd.ms-powerpoint": "ppt",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
};

/** attachment for documents, inline for what a browser shows; the name in ASCII and in UTF-8 (RFC 6266). */
export function contentDisposition(row: Pick<MediaRow, "id" | "kind" | "mimeType" | "filename">): string {
  const name = row.filename ?? `${row.id}.${EXTENSIONS[row.mimeType] ?? "bin"}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${row.kind === "document" ? "attachment" : "inline"}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** One `bytes=` range of a file of `size` bytes: null to serve it whole, "unsatisfiable" outside it. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: served whole (a server may ignore Range).
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

export async function openContent(p: Principal, mediaId: string, request: ContentRequest): Promise<ContentAnswer> {
  const signed = request.signed;
  if (signed?.expires !== undefined || signed?.signature !== undefined) {
    if (!signed.expires || !signed.signature || !signedContentValid(mediaId, signed.expires, signed.signature)) {
      throw new ApiError(
        "MEDIA_NOT_FOUND",
        "This media link expired or is not this service's: ask GET /{mediaId} for a new one",
      );
    }
  }
  const row = await findMedia(p, mediaId);
  if (!row) throw mediaNotFound(mediaId);
  if (row.status !== "ready" || !row.sha256 || row.fileSize === null) {
    throw new ApiError("MEDIA_NOT_READY", notReadyMessage(row), {
      status: row.status,
      ...(row.unavailableReason ? { unavailableReason: row.unavailableReason } : {}),
    });
  }
  const size = row.fileSize;
  const etag = `"${row.sha256}"`;
  const headers: Record<string, string> = {
    "Content-Type": row.mimeType === "text/plain" ? "text/plain; charset=utf-8" : row.mimeType,
    ETag: etag,
    "Cache-Control": "private, max-age=300",
    "X-Content-Type-Options": "nosniff",
    "Accept-Ranges": "bytes",
    "Content-Disposition": contentDisposition(row),
  };
  if (request.ifNoneMatch?.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")) {
    return { status: 304, headers, body: null };
  }
  const honoured = request.range && (!request.ifRange || request.ifRange.trim() === etag);
  const range = honoured ? parseRange(request.range ?? "", size) : null;
  if (range === "unsatisfiable") {
    throw new ApiError(
      "RANGE_NOT_SATISFIABLE",
      `The range ${String(request.range).slice(0, 64)} is outside the file's ${size} bytes`,
      { size },
      { "Content-Range": `bytes */${size}` },
    );
  }
  const length = range ? range.end - range.start + 1 : size;
  headers["Content-Length"] = String(length);
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
  const status = range ? 206 : 200;
  if (request.head) return { status, headers, body: null };
  const body = await getStorage().read(objectKey(row.customerId, row.sha256), range ?? undefined);
  if (!body) {
    log.error({ mediaId: row.id }, "a ready media has no file in the store");
    throw new Error("the store has no file for a ready media");
  }
  return { status, headers, body };
}

function notReadyMessage(row: MediaRow): string {
  if (row.status === "pending") return "The file is still being fetched from the provider; try again shortly";
  if (row.status === "expired") return "The file was deleted after the retention period; its facts remain";
  return `The file could not be fetched from the provider${row.unavailableReason ? `: ${row.unavailableReason}` : ""}`;
}
