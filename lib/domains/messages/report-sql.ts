// The reports' reads of the Message table (lib/domains/reports, docs/messaging.md "Reports"):
// the message log and the delivery and template counts. A message is joined to its billing
// record for what the provider billed (rate, pricing, its delivery times); its status and its
// error are its own row's.
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** Which messages: one customer's, narrowed by any of the rest. Days are UTC, YYYY-MM-DD, inclusive. */
export type MessageFilter = {
  customerId: string;
  senderId?: string;
  dateFrom?: string;
  dateTo?: string;
  status?: string;
  recipient?: string;
  providerMessageId?: string;
  messageUid?: string;
  templateName?: string;
  type?: string;
  sendRoute?: string;
  directSendCategory?: string;
  broadcastId?: string;
  /** Template sends only (the template analytics). */
  templates?: boolean;
};

const FROM = Prisma.sql`"Message" m
  JOIN "Sender" s ON s."id" = m."senderId"
  LEFT JOIN "BillingRecord" b ON b."messageId" = m."providerMessageId" AND b."customerId" = m."customerId"`;

function where(f: MessageFilter): Prisma.Sql {
  const parts = [Prisma.sql`m."customerId" = ${f.customerId}`];
  if (f.senderId) parts.push(Prisma.sql`m."senderId" = ${f.senderId}`);
  if (f.dateFrom) parts.push(Prisma.sql`m."createdAt" >= ${new Date(`${f.dateFrom}T00:00:00Z`)}`);
  if (f.dateTo) parts.push(Prisma.sql`m."createdAt" < ${new Date(Date.parse(`${f.dateTo}T00:00:00Z`) + 86_400_000)}`);
  if (f.status) parts.push(Prisma.sql`m."status" = ${f.status}`);
  if (f.recipient) parts.push(Prisma.sql`m."recipient" = ${f.recipient}`);
  if (f.providerMessageId) parts.push(Prisma.sql`m."providerMessageId" = ${f.providerMessageId}`);
  if (f.messageUid) parts.push(Prisma.sql`m."id" = ${f.messageUid}`);
  if (f.templateName) parts.push(Prisma.sql`m."templateName" = ${f.templateName}`);
  if (f.templates) parts.push(Prisma.sql`m."templateName" IS NOT NULL`);
  if (f.type) parts.push(Prisma.sql`m."type" = ${f.type}`);
  if (f.sendRoute) parts.push(Prisma.sql`m."sendRoute" = ${f.sendRoute}`);
  if (f.directSendCategory) parts.push(Prisma.sql`m."directSendCategory" = ${f.directSendCategory}`);
  if (f.broadcastId) parts.push(Prisma.sql`m."broadcastId" = ${f.broadcastId}`);
  return Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}`;
}

export type MessageReportRow = {
  id: string;
  providerMessageId: string | null;
  senderPhone: string;
  senderPhoneNumberId: string | null;
  recipient: string;
  type: string;
  templateName: string | null;
  templateLanguage: string | null;
  sendRoute: string;
  directSendCategory: string | null;
  directSendTemplateName: string | null;
  ttlSeconds: number | null;
  metaTemplateId: string | null;
  broadcastId: string | null;
  status: string;
  queued: boolean;
  attempts: number;
  errorCode: number | null;
  errorMessage: string | null;
  pricingCategory: string | null;
  billable: boolean | null;
  rate: Prisma.Decimal | string | null;
  billingUid: string | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** A text message's body (the dashboard's log shows it; not part of the public report). */
  textBody: string | null;
  /** A media message's caption. */
  mediaCaption: string | null;
} & (ReportMediaRow | { [K in keyof ReportMediaRow]: null });

/**
 * The file a message sent by mediaId (docs/media.md "Sending media"): the Media row's facts,
 * the columns lib/domains/media/serializers.ts toMessageMedia reads (all null without a file).
 */
type ReportMediaRow = {
  mediaId: string;
  mediaKind: string;
  mediaMimeType: string;
  mediaSha256: string | null;
  mediaFileSize: number | null;
  mediaFilename: string | null;
  mediaStatus: string;
  mediaUnavailableReason: string | null;
};
const MEDIA_JOIN = Prisma.sql`LEFT JOIN "Media" md ON md."id" = m."mediaId" AND md."customerId" = m."customerId"`;
const MEDIA_COLUMNS = Prisma.sql`md."id" AS "mediaId", md."kind" AS "mediaKind", md."mimeType" AS "mediaMimeType",
  md."sha256" AS "mediaSha256", md."fileSize" AS "mediaFileSize", md."filename" AS "mediaFilename",
  md."status" AS "mediaStatus", md."unavailableReason" AS "mediaUnavailableReason"`;

/** A page of the message log, newest first, and how many messages the filter holds. */
export async function messageLogPage(
  f: MessageFilter,
  skip: number,
  take: number,
): Promise<{ rows: MessageReportRow[]; total: number }> {
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ${FROM} ${where(f)}`,
    db.$queryRaw<MessageReportRow[]>`
      SELECT m."id", m."providerMessageId", s."phoneNumber" AS "senderPhone", s."phoneNumberId" AS "senderPhoneNumberId",
        m."recipient", m."type", m."templateName", m."templateLanguage", m."sendRoute", m."directSendCategory",
        m."directSendTemplateName", m."ttlSeconds", m."metaTemplateId", m."broadcastId", m."status", m."queued",
        m."attempts", m."errorCode", m."errorMessage",
        COALESCE(b."pricingCategory", m."pricingCategory") AS "pricingCategory", b."billable", b."rate", b."id" AS "billingUid",
        b."sentAt", b."deliveredAt", b."readAt", b."failedAt", m."createdAt", GREATEST(m."updatedAt", b."updatedAt") AS "updatedAt",
        left(m."payload"->'text'->>'body', 200) AS "textBody",
        m."payload"->m."type"->>'caption' AS "mediaCaption", ${MEDIA_COLUMNS}
      FROM ${FROM} ${MEDIA_JOIN} ${where(f)}
      ORDER BY m."createdAt" DESC, m."id" ASC
      LIMIT ${take} OFFSET ${skip}`,
  ]);
  return { rows, total: counted[0]?.n ?? 0 };
}

export type StatusCounts = {
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
};

// Sent counts everything the provider reported as sent or beyond; delivered includes read.
const COUNT_COLUMNS = Prisma.sql`
  count(*)::int AS "total",
  count(*) FILTER (WHERE m."status" = 'queued')::int AS "queued",
  count(*) FILTER (WHERE m."status" IN ('sent', 'delivered', 'read'))::int AS "sent",
  count(*) FILTER (WHERE m."status" IN ('delivered', 'read'))::int AS "delivered",
  count(*) FILTER (WHERE m."status" = 'read')::int AS "read",
  count(*) FILTER (WHERE m."status" = 'failed')::int AS "failed"`;

/** Counts per day (UTC) and send route, in the order of days and routes. */
export type DayRouteCounts = StatusCounts & { day: string; sendRoute: string };

export function countsByDayAndRoute(f: MessageFilter): Promise<DayRouteCounts[]> {
  return db.$queryRaw<DayRouteCounts[]>`
    SELECT to_char(date_trunc('day', m."createdAt"), 'YYYY-MM-DD') AS "day", m."sendRoute", ${COUNT_COLUMNS}
    FROM ${FROM} ${where(f)}
    GROUP BY 1, 2 ORDER BY 1, 2`;
}

export type TemplateCounts = StatusCounts & {
  templateName: string;
  templateLanguage: string | null;
  metaTemplateId: string | null;
  pricingCategory: string | null;
};

/** Counts per template (name and language), most sent first, and how many templates there are. */
export async function countsByTemplate(
  f: MessageFilter,
  skip: number,
  take: number,
): Promise<{ rows: TemplateCounts[]; total: number }> {
  const filter = { ...f, templates: true };
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM ${FROM} ${where(filter)} GROUP BY m."templateName", m."templateLanguage") g`,
    db.$queryRaw<TemplateCounts[]>`
      SELECT m."templateName", m."templateLanguage", max(m."metaTemplateId") AS "metaTemplateId",
        max(m."pricingCategory") AS "pricingCategory", ${COUNT_COLUMNS}
      FROM ${FROM} ${where(filter)}
      GROUP BY m."templateName", m."templateLanguage"
      ORDER BY count(*) DESC, m."templateName" ASC, m."templateLanguage" ASC
      LIMIT ${take} OFFSET ${skip}`,
  ]);
  return { rows, total: counted[0]?.n ?? 0 };
}
