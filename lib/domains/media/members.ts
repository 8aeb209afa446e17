// The dashboard's side of media (docs/media.md "Inbox"): members read and upload files only
// when their role reads the inbox (owners, admins, agents), and an agent limited to some
// senders only their senders' files (findMedia's scope); other roles are PERMISSION_DENIED
// before anything is read. Tokens use the API's routes (content.ts, service.ts).
import type { Readable } from "node:stream";
import { ApiError } from "@/lib/core/errors";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { resolveSender } from "@/lib/domains/senders/service";
import { type ContentAnswer, type ContentRequest, openContent } from "./content";
import type { MediaUploadInput } from "./schemas";
import type { MediaRow } from "./serializers";
import { receiveUpload, storeUpload } from "./service";
import type { StagedFile } from "./staging";

/** A file's bytes for a member's browser, with the API content route's headers (no signed links here). */
export async function openMemberContent(
  p: Principal,
  mediaId: string,
  request: Omit<ContentRequest, "signed">,
): Promise<ContentAnswer> {
  assertPermission(p, "inbox");
  return openContent(p, mediaId, { ...request, signed: undefined });
}

/** The file part of a member's upload (the reply box's attachment), checked as the API checks it. */
export function receiveMemberUpload(
  p: Principal,
  file: Readable,
  info: { filename: string | null; mimeType: string },
): Promise<StagedFile> {
  assertPermission(p, "inbox");
  return receiveUpload(p, file, info);
}

/** Keeps a member's upload for the sender it names (one the member works on); the file is then sent by id. */
export async function storeMemberUpload(p: Principal, form: MediaUploadInput): Promise<MediaRow> {
  assertPermission(p, "inbox");
  const sender = await resolveSender(p, form.senderId, { useDefault: false, requireSetup: false });
  if (!sender) throw new ApiError("VALIDATION_FAILED", "Name the sender the file is for (senderId)");
  return storeUpload(p, sender, form);
}
