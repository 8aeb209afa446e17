// The provider's media types and limits (docs/media.md "Types and limits"): which MIME types
// each kind takes and how large a file may be. Pure, with no server imports: the API, the
// sends and the dashboard's attach box check against the same table and say the same words.

export const MEDIA_KINDS = ["image", "video", "audio", "document", "sticker"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Whether a message type is one of the media kinds (image, video, audio, document, sticker). */
export const isMediaKind = (type: string): type is MediaKind => (MEDIA_KINDS as readonly string[]).includes(type);

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
export const OLE_DOCUMENT_TYPES = ["application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint"];

/** What file-type or a client (a browser's File.type) may call a type the table names otherwise. */
export const MIME_ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "video/3gp": "video/3gpp",
  "audio/opus": "audio/ogg",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/mp3": "audio/mpeg",
  "audio/x-aac": "audio/aac",
  "application/ogg": "audio/ogg",
};

/** Kind -> the MIME types the provider takes for it. */
export const MEDIA_TYPES: Record<MediaKind, readonly string[]> = {
  image: ["image/jpeg", "image/png"],
  video: ["video/mp4", "video/3gpp"],
  audio: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
  document: ["application/pdf", "text/plain", ...OLE_DOCUMENT_TYPES, DOCX, XLSX, PPTX],
  sticker: ["image/webp"],
};

/** Sizes in bytes (decimal megabytes, as the provider counts them: never past its limit). */
export const MEDIA_MAX_BYTES: Record<MediaKind, number> = {
  image: 5_000_000,
  video: 16_000_000,
  audio: 16_000_000,
  document: 100_000_000,
  /** A static sticker; an animated one may take ANIMATED_STICKER_MAX_BYTES. */
  sticker: 100_000,
};
export const ANIMATED_STICKER_MAX_BYTES = 500_000;

/** The largest file any kind takes: no upload is read further than this (and its multipart overhead). */
export const LARGEST_MEDIA_BYTES = Math.max(...Object.values(MEDIA_MAX_BYTES));

/** The kind a MIME type belongs to, or undefined when the provider takes it for none. */
export function kindOfMime(mimeType: string): MediaKind | undefined {
  const type = mimeType.toLowerCase();
  return MEDIA_KINDS.find((kind) => MEDIA_TYPES[kind].includes(type));
}

/** A file's limit: its kind's, an animated sticker's when it is one. */
export function maxBytesOf(kind: MediaKind, animated = false): number {
  return kind === "sticker" && animated ? ANIMATED_STICKER_MAX_BYTES : MEDIA_MAX_BYTES[kind];
}

/** "5 MB", "100 KB": a limit as the messages say it. */
export function formatLimit(bytes: number): string {
  return bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1_000} KB`;
}

/**
 * 900 bytes, 12 KB, 1.5 MB: a file's size or an account's usage in decimal units, as the
 * provider's limits and MEDIA_QUOTA_MB count them; one decimal under 10 of a unit.
 */
export function formatFileSize(bytes: number): string {
  if (bytes < 1_000) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1_000, "KB"] : [bytes / 1_000_000, "MB"];
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${shown} ${unit}`;
}

/** The refusal of a file over its limit, worded the same everywhere. */
export const tooLargeMessage = (kind: MediaKind, maxBytes: number) =>
  `This ${kind} is larger than ${formatLimit(maxBytes)}, the largest ${kind} the provider takes`;

/** The refusal of a type the provider does not take. */
export const unsupportedTypeMessage = (detected: string | undefined) =>
  detected
    ? `Files of type ${detected} cannot be sent: images (JPEG, PNG), videos (MP4, 3GPP), audio (AAC, AMR, MP3, MP4, OGG), documents (PDF, text, Word, Excel, PowerPoint) and stickers (WebP) can`
    : "The file's type could not be recognised: images (JPEG, PNG), videos (MP4, 3GPP), audio (AAC, AMR, MP3, MP4, OGG), documents (PDF, text, Word, Excel, PowerPoint) and stickers (WebP) can be sent";
