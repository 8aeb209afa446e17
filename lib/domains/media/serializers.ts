// Public shapes of media (docs/media.md "API"): every field is named here.
import type { MediaKind } from "./kinds";
import type { MediaStatus, MessageMediaT, PublicMediaT } from "./schemas";

/** A Media row with its sender's phone number. */
export type MediaRow = {
  id: string;
  customerId: string;
  senderId: string | null;
  senderPhoneNumber: string | null;
  kind: string;
  mimeType: string;
  sha256: string | null;
  fileSize: number | null;
  filename: string | null;
  source: string;
  status: string;
  unavailableReason: string | null;
  createdAt: Date;
  expiresAt: Date;
};

/** A deleted file's facts stay with the messages; the API shows only the statuses a client can hold. */
const publicStatus = (status: string): MediaStatus =>
  status === "pending" || status === "unavailable" || status === "expired" ? status : "ready";

export function toPublicMedia(row: MediaRow): PublicMediaT {
  return {
    mediaId: row.id,
    kind: row.kind as MediaKind,
    mimeType: row.mimeType,
    sha256: row.sha256,
    fileSize: row.fileSize,
    filename: row.filename,
    source: row.source === "inbound" ? "inbound" : "upload",
    status: publicStatus(row.status),
    unavailableReason: row.unavailableReason,
    senderId: row.senderPhoneNumber,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The facts of a message's file (MESSAGE_MEDIA_COLUMNS, or a Media row). */
export type MessageMediaRow = {
  mediaId: string;
  mediaKind: string;
  mediaMimeType: string;
  mediaSha256: string | null;
  mediaFileSize: number | null;
  mediaFilename: string | null;
  mediaStatus: string;
  mediaUnavailableReason: string | null;
};

const DELETED_REASON = "The file was deleted";

/** A message's file as thread entries and events show it; the caption is the message's. */
export function toMessageMedia(row: MessageMediaRow, caption?: string | null): MessageMediaT {
  const status: MediaStatus =
    row.mediaStatus === "storing"
      ? "pending"
      : row.mediaStatus === "deleted"
        ? "unavailable"
        : publicStatus(row.mediaStatus);
  const reason = row.mediaStatus === "deleted" ? DELETED_REASON : row.mediaUnavailableReason;
  return {
    mediaId: row.mediaId,
    kind: row.mediaKind as MediaKind,
    mimeType: row.mediaMimeType,
    sha256: row.mediaSha256,
    fileSize: row.mediaFileSize,
    ...(row.mediaFilename ? { filename: row.mediaFilename } : {}),
    ...(caption ? { caption } : {}),
    status,
    ...(status === "unavailable" && reason ? { unavailableReason: reason } : {}),
  };
}
