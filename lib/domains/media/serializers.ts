// Public shapes of media (docs/media.md "API"): every field is named here.
import type { MediaKind } from "./kinds";
import type { MediaStatus, PublicMediaT } from "./schemas";

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
