// GET /reports/messages: the message log with its delivery progress.

import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import type { Version } from "@/lib/core/version";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { normalizePhone, type Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { FROM_SQL, STATUS_SQL, scopeConditions, v3Only, whereSql } from "./filters";
import type { MessageReportInput } from "./schemas";

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
};

export async function listMessageReport(
  p: Principal,
  sender: Sender | undefined,
  q: MessageReportInput,
  version: Version,
): Promise<{ rows: MessageReportRow[]; pagination: PageBlock }> {
  const where = scopeConditions(p, sender, q);
  if (q.status) where.push(Prisma.sql`${STATUS_SQL} = ${q.status}`);
  if (q.recipient) where.push(Prisma.sql`m."recipient" = ${normalizePhone(q.recipient)}`);
  if (q.messageId) where.push(Prisma.sql`m."providerMessageId" = ${q.messageId}`);
  if (q.messageUid) where.push(Prisma.sql`m."id" = ${q.messageUid}`);
  if (q.templateName) where.push(Prisma.sql`m."templateName" = ${q.templateName}`);
  if (q.type) where.push(Prisma.sql`m."type" = ${q.type}`);
  const sendRoute = v3Only(version, q.sendRoute);
  if (sendRoute) where.push(Prisma.sql`m."sendRoute" = ${sendRoute}`);
  const category = v3Only(version, q.directSendCategory);
  if (category) where.push(Prisma.sql`m."directSendCategory" = ${category}`);
  const broadcastUid = v3Only(version, q.broadcastUid);
  if (broadcastUid) where.push(Prisma.sql`m."broadcastId" = ${broadcastUid}`);
  const { skip, take } = skipTake(q);
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ${FROM_SQL} ${whereSql(where)}`,
    db.$queryRaw<MessageReportRow[]>`
      SELECT m."id", m."providerMessageId", s."phoneNumber" AS "senderPhone", s."phoneNumberId" AS "senderPhoneNumberId",
        m."recipient", m."type", m."templateName", m."templateLanguage", m."sendRoute", m."directSendCategory",
        m."directSendTemplateName", m."ttlSeconds", m."metaTemplateId", m."broadcastId", ${STATUS_SQL} AS "status", m."queued",
        m."attempts", COALESCE(b."errorCode", m."errorCode") AS "errorCode", COALESCE(b."errorTitle", m."errorMessage") AS "errorMessage",
        COALESCE(b."pricingCategory", m."pricingCategory") AS "pricingCategory", b."billable", b."rate", b."id" AS "billingUid",
        b."sentAt", b."deliveredAt", b."readAt", b."failedAt", m."createdAt", GREATEST(m."updatedAt", b."updatedAt") AS "updatedAt"
      FROM ${FROM_SQL} ${whereSql(where)}
      ORDER BY m."createdAt" DESC, m."id" ASC
      LIMIT ${take} OFFSET ${skip}`,
  ]);
  const total = counted[0]?.n ?? 0;
  return { rows, pagination: pageBlock(q.page, q.limit, total, rows.length) };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The public report row; v3 adds sendRoute, directSendCategory, directSendTemplateName, ttlSeconds, metaTemplateId, broadcastUid. */
export function toPublicMessageReport(r: MessageReportRow, version: Version) {
  return {
    messageUid: r.id,
    messageId: r.providerMessageId,
    senderId: r.senderPhone,
    phoneNumberId: r.senderPhoneNumberId,
    recipient: r.recipient,
    type: r.type,
    templateName: r.templateName,
    templateLanguage: r.templateLanguage,
    status: r.status,
    queued: r.queued,
    attempts: r.attempts,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    pricingCategory: r.pricingCategory,
    billable: r.billable,
    rate: r.rate === null ? null : Number(String(r.rate)),
    billingUid: r.billingUid,
    sentAt: iso(r.sentAt),
    deliveredAt: iso(r.deliveredAt),
    readAt: iso(r.readAt),
    failedAt: iso(r.failedAt),
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    ...(version === "v3"
      ? {
          sendRoute: r.sendRoute,
          directSendCategory: r.directSendCategory,
          directSendTemplateName: r.directSendTemplateName,
          ttlSeconds: r.ttlSeconds,
          metaTemplateId: r.metaTemplateId,
          broadcastUid: r.broadcastId,
        }
      : {}),
  };
}
