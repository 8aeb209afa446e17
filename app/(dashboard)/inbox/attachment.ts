// The reply box's attachment (docs/inbox.md "Attaching a file"): the browser's check of a
// picked, dropped or pasted file against the provider's table before anything is uploaded
// (lib/domains/media/kinds.ts, the table and the words the API answers with), and the
// upload itself, with its progress (XMLHttpRequest: fetch cannot report an upload's).
import {
  ANIMATED_STICKER_MAX_BYTES,
  kindOfMime,
  MEDIA_MAX_BYTES,
  type MediaKind,
  MIME_ALIASES,
  tooLargeMessage,
  unsupportedTypeMessage,
} from "@/lib/domains/media/kinds";

/** Extensions a browser may leave without a type (File.type ""): the server reads the bytes anyway. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  mp4: "video/mp4",
  "3gp": "video/3gpp",
  aac: "audio/aac",
  amr: "audio/amr",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  pdf: "application/pdf",
  txt: "text/plain",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

export type AttachmentCheck =
  | { ok: true; kind: MediaKind | null; mimeType: string | null }
  | { ok: false; message: string };

/** The type a file says it is: its File.type (aliases as the API reads them), else its extension's; null when neither says. */
export function declaredType(file: { name: string; type: string }): string | null {
  const bare = file.type.split(";")[0]?.trim().toLowerCase() ?? "";
  if (bare && bare !== "application/octet-stream") return MIME_ALIASES[bare] ?? bare;
  const extension = file.name.includes(".") ? file.name.split(".").pop()?.toLowerCase() : undefined;
  return (extension && TYPE_BY_EXTENSION[extension]) || null;
}

/**
 * Whether the provider takes this file, as far as the browser can tell: a type outside the
 * table or a size past its kind's limit is refused here with the API's own message. A file of
 * no known type goes up (the server reads its bytes); a sticker is held to the animated limit
 * (only its bytes say whether it is animated, and the server checks that).
 */
export function checkAttachment(file: { name: string; type: string; size: number }): AttachmentCheck {
  const mimeType = declaredType(file);
  if (!mimeType) return { ok: true, kind: null, mimeType: null };
  const kind = kindOfMime(mimeType);
  if (!kind) return { ok: false, message: unsupportedTypeMessage(mimeType) };
  const max = kind === "sticker" ? ANIMATED_STICKER_MAX_BYTES : MEDIA_MAX_BYTES[kind];
  if (file.size > max) return { ok: false, message: tooLargeMessage(kind, max) };
  if (file.size === 0) return { ok: false, message: "The file is empty" };
  return { ok: true, kind, mimeType };
}

/** The file's facts the upload answers (POST /api/dashboard/media: POST /media's envelope, its `data` the API's Media shape). */
export type UploadedMedia = {
  mediaId: string;
  kind: MediaKind;
  mimeType: string;
  fileSize: number;
  filename: string | null;
};

/**
 * Uploads a file for the conversation's sender, reporting progress (0 to 1) as it goes; a
 * refusal rejects with the server's message. `signal` aborts it.
 */
export function uploadAttachment(
  file: File,
  senderId: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadedMedia> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/dashboard/media");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as { data?: UploadedMedia; message?: unknown };
      if (xhr.status === 201 && body.data) {
        onProgress(1);
        resolve(body.data);
      } else reject(new Error(typeof body.message === "string" ? body.message : "The upload failed"));
    };
    xhr.onerror = () => reject(new Error("The upload failed: the connection was lost"));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.set("senderId", senderId);
    // The part's own Content-Type is the browser's File.type; the server reads the bytes.
    form.set("file", file, file.name);
    xhr.send(form);
  });
}
