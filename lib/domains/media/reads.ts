// What other domains read of a message's file: the thread (lib/domains/conversations/list-sql.ts)
// joins each entry's Media row, an inbound entry's own (ConversationMessage.mediaId) or an
// outbound one's message's (Message.mediaId). One statement for a page; its columns are
// MessageMediaRow (serializers.ts) with a null mediaId when the entry has no file.
import { Prisma } from "@/lib/generated/prisma/client";

/** Joined after the thread's entries `e` and their messages `m` (lib/domains/messages/reads.ts). */
export const THREAD_MEDIA_JOIN = Prisma.sql`LEFT JOIN "Media" md
  ON md."id" = COALESCE(e."mediaId", m."mediaId") AND md."customerId" = e."customerId"`;
export const THREAD_MEDIA_COLUMNS = Prisma.sql`md."id" AS "mediaId", md."kind" AS "mediaKind",
  md."mimeType" AS "mediaMimeType", md."sha256" AS "mediaSha256", md."fileSize" AS "mediaFileSize",
  md."filename" AS "mediaFilename", md."status" AS "mediaStatus", md."unavailableReason" AS "mediaUnavailableReason"`;
