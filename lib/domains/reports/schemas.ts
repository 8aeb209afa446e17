// Report queries: message log (filters; v3 adds sendRoute and directSendCategory) and the
// delivery and template analytics.
import { z } from "zod";
import { OptionalDateOnly } from "@/lib/core/date-only-query";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { MessageMedia } from "@/lib/domains/media/schemas";
import { RECORDED_SEND_ROUTES } from "@/lib/domains/messages/send-routes";
import { MESSAGE_STATUSES } from "@/lib/domains/messages/status";
import { DIRECT_SEND_CATEGORIES } from "@/lib/domains/templates/direct-send";

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const lower = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim().toLowerCase()) : v);

const Text = (max: number) => z.preprocess(blankAsAbsent, z.string().trim().max(max).optional());

const DateRange = {
  senderId: Text(32).describe("Sender phone number; omitted with a global token: all senders"),
  dateFrom: OptionalDateOnly.describe("From this day (UTC), YYYY-MM-DD"),
  dateTo: OptionalDateOnly.describe("Up to and including this day (UTC), YYYY-MM-DD"),
};

function orderedDates<T extends { dateFrom?: string; dateTo?: string }>(q: T, ctx: z.RefinementCtx) {
  if (q.dateFrom && q.dateTo && q.dateFrom > q.dateTo)
    ctx.addIssue({ code: "custom", path: ["dateTo"], message: "dateTo is before dateFrom" });
}

export const MessageReportQuery = PageQuery.extend({
  ...DateRange,
  status: z.preprocess(lower, z.enum(MESSAGE_STATUSES).optional()),
  recipient: Text(32),
  messageId: Text(200).describe("Exact provider message id"),
  messageUid: Text(64).describe("Exact local message id"),
  templateName: Text(512),
  type: Text(32),
  sendRoute: z.preprocess(lower, z.enum(RECORDED_SEND_ROUTES).optional()).describe("v3 only"),
  directSendCategory: z.preprocess(lower, z.enum(DIRECT_SEND_CATEGORIES).optional()).describe("v3 only"),
  broadcastUid: Text(64).describe("v3 only: the messages of one broadcast"),
}).superRefine(orderedDates);
export type MessageReportInput = z.infer<typeof MessageReportQuery>;

/**
 * The dashboard's message log (GET /api/dashboard/messages, lib/api/dashboard-routes/messages.ts):
 * the report's filters, 25 rows a page unless asked, and the page's sender as `sender` (its
 * phone number; blank or absent: the default sender, lib/domains/senders/dashboard-scope.ts).
 */
export const MessageLogQuery = z.preprocess(
  (raw) => (raw !== null && typeof raw === "object" ? { limit: "25", ...raw } : raw),
  z.intersection(MessageReportQuery, z.object({ sender: z.preprocess(blankAsAbsent, z.string().optional()) })),
);

export const DeliveryAnalyticsQuery = z
  .object({ ...DateRange, sendRoute: z.preprocess(lower, z.enum(RECORDED_SEND_ROUTES).optional()).describe("v3 only") })
  .superRefine(orderedDates);
export type DeliveryAnalyticsInput = z.infer<typeof DeliveryAnalyticsQuery>;

export const TemplateAnalyticsQuery = PageQuery.extend({ ...DateRange, templateName: Text(512) }).superRefine(
  orderedDates,
);
export type TemplateAnalyticsInput = z.infer<typeof TemplateAnalyticsQuery>;

// Answers (the OpenAPI document's response schemas).
const Scope = {
  senderId: z.string().nullable().describe("The sender's phone number; null when the scope is the user"),
  phoneNumberId: z.string().nullable(),
  scope: z.enum(["sender", "user"]),
};
const str = z.string().nullable();
const v3 = (schema: z.ZodType) => schema.optional().describe("v3 only");

export const MessageReportRowPublic = z
  .object({
    messageUid: z.string(),
    messageId: str,
    senderId: str,
    phoneNumberId: str,
    recipient: z.string(),
    type: z.string(),
    templateName: str,
    templateLanguage: str,
    status: z.string(),
    queued: z.boolean(),
    attempts: z.number().int(),
    errorCode: z.number().int().nullable().describe("The provider's error code"),
    errorMessage: str,
    pricingCategory: str,
    billable: z.boolean().nullable().describe("null until the message is billed"),
    rate: z.number().nullable(),
    billingUid: str,
    sentAt: isoTimestamp().nullable(),
    deliveredAt: isoTimestamp().nullable(),
    readAt: isoTimestamp().nullable(),
    failedAt: isoTimestamp().nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
    sendRoute: v3(z.string()),
    directSendCategory: v3(str),
    directSendTemplateName: v3(str),
    ttlSeconds: v3(z.number().int().nullable()),
    metaTemplateId: v3(str),
    broadcastUid: v3(str).describe("v3 only: the broadcast that sent the message; null for other sends"),
    media: v3(MessageMedia.nullable()).describe(
      "v3 only: the file a media message (or a template's media header) sent by mediaId; null for other messages",
    ),
  })
  .meta({ id: "MessageReportRow" });

export const MessageReportPublic = z.object({
  ...Scope,
  messages: z.array(MessageReportRowPublic),
  items: z.array(MessageReportRowPublic),
  pagination: PageBlockSchema,
});

const Rates = {
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  deliveryRate: z.number(),
  readRate: z.number(),
  failureRate: z.number(),
};

export const DeliveryAnalyticsPublic = z.object({
  ...Scope,
  dateFrom: str,
  dateTo: str,
  totals: z.object(Rates),
  byDay: z.array(
    z.object({ date: z.string().meta({ format: "date" }).describe("The day (UTC), YYYY-MM-DD"), ...Rates }),
  ),
  bySendRoute: v3(z.array(z.object({ sendRoute: z.string(), ...Rates }))),
});

const TemplateAnalyticsRow = z.object({
  templateName: str,
  language: str,
  category: str,
  ...Rates,
  metaTemplateId: v3(str),
});

export const TemplateAnalyticsPublic = z.object({
  ...Scope,
  templates: z.array(TemplateAnalyticsRow),
  items: z.array(TemplateAnalyticsRow),
  pagination: PageBlockSchema,
});
