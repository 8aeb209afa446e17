// A file's type from its bytes (docs/media.md "Types and limits"): the magic numbers of its
// first bytes read by file-type, never the name or the declared type alone. A declared type
// that contradicts the bytes (declared image/png, PDF bytes) is refused; the declaration only
// decides what the bytes cannot (text, or which of the OLE documents a Word/Excel/PowerPoint
// file of the old format is).
import { fileTypeFromBuffer } from "file-type";
import { ApiError } from "@/lib/core/errors";
import { kindOfMime, type MediaKind, MIME_ALIASES, OLE_DOCUMENT_TYPES, unsupportedTypeMessage } from "./kinds";

/** Enough of a file for every detector the table needs (an Office file's zip directory included). */
export const DETECTION_BYTES = 64 * 1024;

export type DetectedType = { mimeType: string; kind: MediaKind; animated: boolean };

const OLE_BY_EXTENSION: Record<string, string> = {
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
};
/** Types a client sends when it does not know: they declare nothing. */
const UNDECLARED = new Set(["", "application/octet-stream", "binary/octet-stream"]);
/** One container, two kinds: an MP4 holding sound only is audio/mp4 when declared so. */
const SAME_CONTAINER = [["video/mp4", "audio/mp4"]];

export const normalizeMime = (type: string | undefined | null): string => {
  const bare = (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return MIME_ALIASES[bare] ?? bare;
};

function looksLikeText(head: Buffer): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  try {
    // Cut at a character boundary: the head may end inside one.
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, lastCharBoundary(head)));
    return true;
  } catch {
    return false;
  }
}

function lastCharBoundary(head: Buffer): number {
  let end = head.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const byte = head[end - i] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) end -= i;
    break;
  }
  return end;
}

/** An animated WebP: the VP8X header's animation flag, or an ANIM chunk. */
function isAnimatedWebp(head: Buffer): boolean {
  const vp8x = head.toString("latin1", 12, 16) === "VP8X";
  return (vp8x && ((head[20] ?? 0) & 0x02) !== 0) || head.includes(Buffer.from("ANIM"));
}

const compatible = (declared: string, detected: string) =>
  declared === detected || SAME_CONTAINER.some((pair) => pair.includes(declared) && pair.includes(detected));

/**
 * The type of a file from its first bytes (at most DETECTION_BYTES), checked against what was
 * declared so far (the part's Content-Type, the form's `type` when it came first): a
 * MEDIA_TYPE_NOT_SUPPORTED refusal when the provider takes no such type or the bytes are not
 * the declared type.
 */
export async function detectType(
  head: Buffer,
  declared: { type?: string; filename?: string | null } = {},
): Promise<DetectedType> {
  const found = await fileTypeFromBuffer(head);
  const declaredType = declared.type ? normalizeMime(declared.type) : undefined;
  let mimeType: string | undefined = found ? normalizeMime(found.mime) : undefined;
  if (mimeType === "application/x-cfb") {
    // The old Word, Excel and PowerPoint formats share one container: the declaration or the
    // file's extension says which, nothing else can.
    const extension = declared.filename?.split(".").pop()?.toLowerCase() ?? "";
    mimeType = declaredType && OLE_DOCUMENT_TYPES.includes(declaredType) ? declaredType : OLE_BY_EXTENSION[extension];
    if (!mimeType) {
      throw new ApiError(
        "MEDIA_TYPE_NOT_SUPPORTED",
        "An Office file of the old format must say which it is: declare its type or name it .doc, .xls or .ppt",
        { detected: "application/x-cfb" },
      );
    }
  }
  if (!mimeType && looksLikeText(head)) mimeType = "text/plain";
  const kind = mimeType ? kindOfMime(mimeType) : undefined;
  if (!mimeType || !kind) {
    throw new ApiError("MEDIA_TYPE_NOT_SUPPORTED", unsupportedTypeMessage(mimeType), { detected: mimeType ?? null });
  }
  const detected = { mimeType, kind, animated: kind === "sticker" && isAnimatedWebp(head) };
  return confirmDeclared(detected, declaredType);
}

/**
 * The detected type checked against a declared one (which may arrive after the file, as the
 * form's `type` does from stock SDKs): refused when they disagree; an MP4 declared audio/mp4
 * is audio.
 */
export function confirmDeclared(detected: DetectedType, declared: string | undefined): DetectedType {
  const declaredType = declared ? normalizeMime(declared) : undefined;
  if (!declaredType || UNDECLARED.has(declaredType)) return detected;
  if (!compatible(declaredType, detected.mimeType)) {
    throw new ApiError("MEDIA_TYPE_NOT_SUPPORTED", `The file's bytes are ${detected.mimeType}, not ${declaredType}`, {
      detected: detected.mimeType,
      declared: declaredType,
    });
  }
  const kind = kindOfMime(declaredType);
  return kind ? { ...detected, mimeType: declaredType, kind } : detected;
}
