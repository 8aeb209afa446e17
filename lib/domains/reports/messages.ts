// GET /reports/messages: the message log with its delivery progress.

import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import type { Version } from "@/lib/core/version";
import type { Principal } from "@/lib/domains/auth/principal";
import { toMessageMedia } from "@/lib/domains/media/serializers";
import { type MessageReportRow, messageLogPage } from "@/lib/domains/messages/report-sql";
import { normalizePhone, type Sender } from "@/lib/domains/senders/service";
import { scopeFilter, v3Only } from "./filters";
import type { MessageReportInput } from "./schemas";

export async function listMessageReport(
  p: Principal,
  sender: Sender | undefined,
  q: MessageReportInput,
  version: Version,
): Promise<{ rows: MessageReportRow[]; pagination: PageBlock }> {
  const { skip, take } = skipTake(q);
  const { rows, total } = await messageLogPage(
    {
      ...scopeFilter(p, sender, q),
      status: q.status,
      recipient: q.recipient ? normalizePhone(q.recipient) : undefined,
      providerMessageId: q.messageId,
      messageUid: q.messageUid,
      templateName: q.templateName,
      type: q.type,
      sendRoute: v3Only(version, q.sendRoute),
      directSendCategory: v3Only(version, q.directSendCategory),
      broadcastId: v3Only(version, q.broadcastUid),
    },
    skip,
    take,
  );
  return { rows, pagination: pageBlock(q.page, q.limit, total, rows.length) };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The public report row; v3 adds sendRoute, directSendCategory, directSendTemplateName, ttlSeconds, metaTemplateId, broadcastUid, media. */
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
          media: r.mediaId === null ? null : toMessageMedia(r, r.mediaCaption),
        }
      : {}),
  };
}

/** The dashboard's message log row: the v3 report row and, for a text, what it said. */
export function toDashboardMessageRow(r: MessageReportRow) {
  return { ...toPublicMessageReport(r, "v3"), text: r.textBody };
}
