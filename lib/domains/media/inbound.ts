// Inbound media kept on arrival (docs/media.md "Inbound media"): in the callback processor's
// transaction (lib/ingest/inbound.ts), each media message a contact sends gets a `pending`
// Media record of the number it was sent to, with the provider's media id and the sha256 the
// callback announced; the NOTIFY "media" in that transaction wakes the media worker
// (fetch-worker.ts), which downloads it. Nothing here waits for a download.
import type { Tx } from "@/lib/db";
import { notifyStatement } from "@/lib/db/wakeups";
import { normalizeMime } from "./detect";
import { isMediaKind, type MediaKind } from "./kinds";
import type { MessageMediaRow } from "./serializers";
import { retentionEnd } from "./service";

/** How long a failed download is retried after the message arrived; then the file is unavailable. */
export const FETCH_WINDOW_MS = 6 * 3_600_000;

/** What a provider message says of its file: `{id, mime_type, sha256, caption?, filename?}` under its type. */
export type InboundFile = {
  kind: MediaKind;
  providerMediaId: string;
  mimeType: string;
  sha256: string | null;
  filename: string | null;
  caption: string | null;
};

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : null);
const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * The file of a provider message, or null when it is not a media message or names no media id.
 * The provider's sha256 is hex; one in base64 (as some versions sent it) is read as hex too.
 */
export function inboundFileOf(type: string, body: Record<string, unknown>): InboundFile | null {
  if (!isMediaKind(type)) return null;
  const part = body[type] as Record<string, unknown> | null | undefined;
  const providerMediaId = str(part?.id);
  if (!part || !providerMediaId) return null;
  return {
    kind: type,
    providerMediaId: providerMediaId.slice(0, 200),
    mimeType: normalizeMime(str(part.mime_type) ?? "") || "application/octet-stream",
    sha256: sha256Hex(str(part.sha256)),
    filename: str(part.filename)?.slice(0, 240) ?? null,
    caption: str(part.caption),
  };
}

/** A SHA-256 as lower-case hex, from hex or base64 (the provider's callbacks send base64); null when neither. */
export function sha256Hex(value: string | null): string | null {
  if (!value) return null;
  const lower = value.toLowerCase();
  if (HEX_SHA256.test(lower)) return lower;
  const bytes = Buffer.from(value, "base64");
  return bytes.length === 32 ? bytes.toString("hex") : null;
}

export type InboundMediaRecord = InboundFile & {
  /** Issued before the message is stored (ConversationMessage.mediaId). */
  mediaId: string;
  customerId: string;
  senderId: string;
  /** The provider message id: its thread entry holds mediaId when it is new. */
  providerMessageId: string;
  /** When the callback was applied: the 6 hours of retries count from it. */
  arrivedAt: Date;
};

/**
 * Inside the ingest transaction, after the messages were stored: a pending record for each
 * file whose thread entry is new (a replayed callback's entry holds the first mediaId, and no
 * second record is made), then the facts of every file, new or replayed, by provider message id.
 */
export async function recordInboundMedia(tx: Tx, files: InboundMediaRecord[]): Promise<Map<string, MessageMediaRow>> {
  if (files.length === 0) return new Map();
  const created = await tx.$executeRawUnsafe(
    `INSERT INTO "Media" ("id", "customerId", "senderId", "kind", "mimeType", "sha256", "filename", "source",
       "status", "providerMediaId", "nextAttemptAt", "fetchDeadline", "createdAt", "expiresAt", "updatedAt")
     SELECT t.id, t.customer, t.sender, t.kind, t.mime, t.sha, t.name, 'inbound', 'pending', t.pmedia,
       t.at::timestamp(3), t.deadline::timestamp(3), t.at::timestamp(3), t.expires::timestamp(3), t.at::timestamp(3)
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[]) AS t(id, customer, sender, kind, mime, sha, name, pmedia, at,
       deadline, expires, pmid)
     JOIN "ConversationMessage" e ON e."providerMessageId" = t.pmid AND e."mediaId" = t.id
     ON CONFLICT ("id") DO NOTHING`,
    files.map((f) => f.mediaId),
    files.map((f) => f.customerId),
    files.map((f) => f.senderId),
    files.map((f) => f.kind),
    files.map((f) => f.mimeType),
    files.map((f) => f.sha256),
    files.map((f) => f.filename),
    files.map((f) => f.providerMediaId),
    files.map((f) => f.arrivedAt.toISOString()),
    files.map((f) => new Date(f.arrivedAt.getTime() + FETCH_WINDOW_MS).toISOString()),
    files.map((f) => retentionEnd(f.arrivedAt).toISOString()),
    files.map((f) => f.providerMessageId),
  );
  if (created > 0) await tx.$executeRaw(notifyStatement("media"));
  const rows = await tx.$queryRawUnsafe<(MessageMediaRow & { providerMessageId: string })[]>(
    `SELECT e."providerMessageId", md."id" AS "mediaId", md."kind" AS "mediaKind", md."mimeType" AS "mediaMimeType",
       md."sha256" AS "mediaSha256", md."fileSize" AS "mediaFileSize", md."filename" AS "mediaFilename",
       md."status" AS "mediaStatus", md."unavailableReason" AS "mediaUnavailableReason"
     FROM "ConversationMessage" e JOIN "Media" md ON md."id" = e."mediaId" AND md."customerId" = e."customerId"
     WHERE e."providerMessageId" = ANY($1::text[])`,
    files.map((f) => f.providerMessageId),
  );
  return new Map(rows.map(({ providerMessageId, ...row }) => [providerMessageId, row]));
}
