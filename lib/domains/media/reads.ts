// What other domains read of a message's file: the thread (lib/domains/conversations/list-sql.ts)
// joins each entry's Media row, an inbound entry's own (ConversationMessage.mediaId) or an
// outbound one's message's (Message.mediaId). One statement for a page; its columns are
// MessageMediaRow (serializers.ts) with a null mediaId when the entry has no file.
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MessageMediaRow } from "./serializers";

/** Joined after the thread's entries `e` and their messages `m` (lib/domains/messages/reads.ts). */
export const THREAD_MEDIA_JOIN = Prisma.sql`LEFT JOIN "Media" md
  ON md."id" = COALESCE(e."mediaId", m."mediaId") AND md."customerId" = e."customerId"`;
export const THREAD_MEDIA_COLUMNS = Prisma.sql`md."id" AS "mediaId", md."kind" AS "mediaKind",
  md."mimeType" AS "mediaMimeType", md."sha256" AS "mediaSha256", md."fileSize" AS "mediaFileSize",
  md."filename" AS "mediaFilename", md."status" AS "mediaStatus", md."unavailableReason" AS "mediaUnavailableReason"`;

/**
 * The files of sent messages, by mediaId, each within its message's account: the facts the
 * message.status.<status> events of a media send carry (lib/ingest/statuses.ts). One statement.
 */
export async function messageMediaRows(
  tx: Tx,
  files: readonly { mediaId: string; customerId: string }[],
): Promise<Map<string, MessageMediaRow>> {
  if (files.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<MessageMediaRow[]>(
    `SELECT md."id" AS "mediaId", md."kind" AS "mediaKind", md."mimeType" AS "mediaMimeType",
       md."sha256" AS "mediaSha256", md."fileSize" AS "mediaFileSize", md."filename" AS "mediaFilename",
       md."status" AS "mediaStatus", md."unavailableReason" AS "mediaUnavailableReason"
     FROM unnest($1::text[], $2::text[]) AS f(id, customer)
     JOIN "Media" md ON md."id" = f.id AND md."customerId" = f.customer`,
    files.map((f) => f.mediaId),
    files.map((f) => f.customerId),
  );
  return new Map(rows.map((r) => [r.mediaId, r]));
}
