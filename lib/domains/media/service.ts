// Media of an account (docs/media.md): uploads stored, looked up and deleted with the
// principal first and the tenant (and the principal's senders) in every where.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { allowedSenderIds, type Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { confirmDeclared } from "./detect";
import { dropReference, type ObjectRef, putObject, takeReference, usedBytes } from "./objects";
import type { MediaUploadInput, ProviderMediaInfoT } from "./schemas";
import type { MediaRow } from "./serializers";
import { signContent } from "./signed-url";
import { quotaExceeded, type StagedFile, stageFile } from "./staging";

export const newMediaId = () => `med_${randomBytes(16).toString("hex")}`;

/** The statuses a client can see; `storing` (an upload half done) and `deleted` are nobody's. */
const VISIBLE = ["ready", "pending", "unavailable", "expired"];

export const quotaBytes = () => env().MEDIA_QUOTA_MB * 1_000_000;
export const retentionEnd = (from = new Date()) => new Date(from.getTime() + env().MEDIA_RETENTION_DAYS * 86_400_000);

/** The account's media usage (the account page): the bytes of its stored files against MEDIA_QUOTA_MB, and how many files. */
export async function mediaUsage(p: Principal): Promise<{ usedBytes: number; quotaBytes: number; files: number }> {
  const [used, files] = await Promise.all([
    usedBytes(p.customerId),
    db.mediaObject.count({ where: { customerId: p.customerId } }),
  ]);
  return { usedBytes: used, quotaBytes: quotaBytes(), files };
}

export const mediaNotFound = (mediaId: string) =>
  new ApiError("MEDIA_NOT_FOUND", `No media ${mediaId.slice(0, 64)} in this account`);

/** The principal's senders as a condition on m."senderId" (a file of no sender: unrestricted principals only). */
function senderScope(p: Principal): Prisma.Sql {
  const allowed = allowedSenderIds(p);
  return allowed === null ? Prisma.sql`TRUE` : Prisma.sql`m."senderId" = ANY(${[...allowed]}::text[])`;
}

/** One media of the principal's account and senders, in a status a client can see; null when none. */
export async function findMedia(p: Principal, mediaId: string): Promise<MediaRow | null> {
  const [row] = await db.$queryRaw<MediaRow[]>`
    SELECT m."id", m."customerId", m."senderId", s."phoneNumber" AS "senderPhoneNumber", m."kind", m."mimeType",
      m."sha256", m."fileSize", m."filename", m."source", m."status", m."unavailableReason", m."createdAt", m."expiresAt"
    FROM "Media" m LEFT JOIN "Sender" s ON s."id" = m."senderId"
    WHERE m."id" = ${mediaId} AND m."customerId" = ${p.customerId} AND m."status" = ANY(${VISIBLE}::text[])
      AND ${senderScope(p)}`;
  return row ?? null;
}

export async function getMedia(p: Principal, mediaId: string): Promise<MediaRow> {
  const row = await findMedia(p, mediaId);
  if (!row) throw mediaNotFound(mediaId);
  return row;
}

/**
 * An upload's file part, streamed into staging (lib/api's `upload.receive`): refused before
 * it is read when the account is at its quota, and as soon as its type is known not to be the
 * provider's or it passes its kind's limit; read no further. Whether it fits the quota is
 * decided when it is kept (the same bytes kept already take no room).
 */
export async function receiveUpload(
  p: Principal,
  file: Readable,
  info: { filename: string | null; mimeType: string },
): Promise<StagedFile> {
  const used = await usedBytes(p.customerId);
  if (used >= quotaBytes()) throw quotaExceeded(quotaBytes(), used);
  return stageFile(file, { declaredType: info.mimeType, filename: cleanFilename(info.filename) });
}

/** A client's file name as a label: the last path segment, without control characters, at most 240 characters. */
function cleanFilename(name: string | null): string | null {
  const base = name
    ?.split(/[\\/]/)
    .pop()
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    ?.replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return base ? base.slice(0, 240) : null;
}

/**
 * Keeps a staged upload as a media of the account (POST /media): its declared type checked
 * again (the form's `type` may come after the file), its reference taken under the quota,
 * then its bytes put in the store, then it is ready.
 */
export async function storeUpload(p: Principal, sender: Sender, form: MediaUploadInput): Promise<MediaRow> {
  const type = confirmDeclared(form.file.type, form.type);
  const id = await keepStaged(p.customerId, sender.id, form.file, type, "upload");
  return getMedia(p, id);
}

/**
 * Keeps bytes the service has in hand as a ready media of the account, stored as an upload is
 * (the demo's files, lib/domains/demo): typed from the bytes, within the kind's limit and the
 * quota. `source` says whose it is: an upload (the business's) or inbound (a contact's).
 */
export async function storeBytes(input: {
  customerId: string;
  senderId: string;
  bytes: Buffer;
  filename: string | null;
  source: "upload" | "inbound";
}): Promise<{ mediaId: string; kind: string; mimeType: string; sha256: string; fileSize: number }> {
  const staged = await stageFile(Readable.from([input.bytes]), { filename: cleanFilename(input.filename) });
  try {
    const id = await keepStaged(input.customerId, input.senderId, staged, staged.type, input.source);
    return { mediaId: id, ...staged.type, sha256: staged.sha256, fileSize: staged.size };
  } finally {
    await staged.discard();
  }
}

/** The record of a staged file, its reference under the quota, its bytes put in the store; then ready. */
async function keepStaged(
  customerId: string,
  senderId: string,
  staged: StagedFile,
  type: { kind: string; mimeType: string },
  source: "upload" | "inbound",
): Promise<string> {
  const id = newMediaId();
  const ref: ObjectRef = { id, customerId, sha256: staged.sha256, size: staged.size, mimeType: type.mimeType };
  const createdAt = new Date();
  await db.$transaction(async (tx) => {
    await tx.media.create({
      data: {
        id,
        customerId,
        senderId,
        kind: type.kind,
        mimeType: type.mimeType,
        sha256: staged.sha256,
        fileSize: staged.size,
        filename: staged.filename,
        source,
        status: "storing",
        createdAt,
        expiresAt: retentionEnd(createdAt),
      },
    });
    await takeReference(tx, ref, quotaBytes());
  });
  try {
    await putObject(ref, staged.path);
  } catch (error) {
    await dropReference(id, customerId, "deleted");
    throw error;
  }
  await db.$executeRaw`UPDATE "Media" SET "status" = 'ready', "readyAt" = ${createdAt}, "updatedAt" = ${createdAt}
    WHERE "id" = ${id} AND "customerId" = ${customerId} AND "status" = 'storing'`;
  return id;
}

/** DELETE /media/{mediaId}: the file goes (with its last reference); messages keep its facts. */
export async function deleteMedia(p: Principal, mediaId: string): Promise<void> {
  const row = await findMedia(p, mediaId);
  if (!row) throw mediaNotFound(mediaId);
  await dropReference(row.id, p.customerId, "deleted");
}

/**
 * GET /{mediaId} of the provider mount: the provider's description of a ready file, its `url`
 * a link to the content under `apiBase` valid 5 minutes; any other status is MEDIA_NOT_READY,
 * as its content would be.
 */
export async function describeForProvider(p: Principal, mediaId: string, apiBase: string): Promise<ProviderMediaInfoT> {
  const row = await getMedia(p, mediaId);
  if (row.status !== "ready" || !row.sha256 || row.fileSize === null) {
    throw new ApiError("MEDIA_NOT_READY", `The file is ${row.status}, not ready`, { status: row.status });
  }
  const { expires, signature } = signContent(row.id);
  return {
    messaging_product: "whatsapp",
    url: `${apiBase}/media/${row.id}/content?expires=${expires}&signature=${signature}`,
    mime_type: row.mimeType,
    sha256: row.sha256,
    file_size: String(row.fileSize),
    id: row.id,
  };
}
