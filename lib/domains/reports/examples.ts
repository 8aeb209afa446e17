// The OpenAPI examples of the report routes (docs/openapi.md "Adding a route"): the sample
// message as the report row, and its counts through the analytics serializers (v3 shapes).
import { EXAMPLE_TIME, exampleTime, listExample } from "@/lib/core/examples";
import type { MessageReportRow, StatusCounts } from "@/lib/domains/messages/report-sql";
import { sampleMessage } from "@/lib/domains/messaging/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import { sampleTemplate } from "@/lib/domains/templates/examples";
import { toPublicDeliveryStats, toPublicTemplateStats } from "./analytics";
import { scopeBlock } from "./filters";
import { toPublicMessageReport } from "./messages";

const userScope = scopeBlock(undefined);
const counts: StatusCounts = { total: 1, queued: 0, sent: 1, delivered: 1, read: 0, failed: 0 };

const reportRow: MessageReportRow = {
  ...sampleMessage,
  senderPhone: sampleSender.phoneNumber,
  senderPhoneNumberId: sampleSender.phoneNumberId,
  metaTemplateId: sampleTemplate.providerTemplateId,
  billable: true,
  rate: "0.004",
  billingUid: "cmwtr9e1a0021ug7dbilling1",
  sentAt: exampleTime(1),
  deliveredAt: exampleTime(2),
  readAt: null,
  failedAt: null,
  status: "delivered",
  updatedAt: exampleTime(2),
  textBody: null,
  mediaCaption: null,
  mediaId: null,
  mediaKind: null,
  mediaMimeType: null,
  mediaSha256: null,
  mediaFileSize: null,
  mediaFilename: null,
  mediaStatus: null,
  mediaUnavailableReason: null,
};

export const getReportsMessages = {
  message: "Message report retrieved",
  response: { ...userScope, ...listExample("messages", [toPublicMessageReport(reportRow, "v3")]) },
};

export const getReportsAnalyticsDelivery = {
  message: "Delivery analytics retrieved",
  response: {
    ...userScope,
    dateFrom: null,
    dateTo: null,
    ...toPublicDeliveryStats(
      [{ day: EXAMPLE_TIME.toISOString().slice(0, 10), sendRoute: sampleMessage.sendRoute, ...counts }],
      "v3",
    ),
  },
};

const templateStats = toPublicTemplateStats(
  {
    templateName: sampleTemplate.name,
    templateLanguage: sampleTemplate.language,
    metaTemplateId: sampleTemplate.providerTemplateId,
    pricingCategory: sampleMessage.pricingCategory,
    ...counts,
  },
  "v3",
);

export const getReportsAnalyticsTemplates = {
  message: "Template analytics retrieved",
  response: { ...userScope, ...listExample("templates", [templateStats]) },
};
