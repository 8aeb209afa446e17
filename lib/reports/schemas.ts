// Report queries: message log (filters; v3 adds sendRoute and directSendCategory) and the
// delivery and template analytics.
import { z } from "zod";
import { PageQuery } from "@/lib/core/pagination";
import { DIRECT_SEND_CATEGORIES, SEND_ROUTES } from "@/lib/messaging/schemas";

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const lower = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim().toLowerCase()) : v);

const DateOnly = z.preprocess(
  blankAsAbsent,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "must be a real date")
    .optional(),
);
const Text = (max: number) => z.preprocess(blankAsAbsent, z.string().trim().max(max).optional());

// "sending": written, its provider call not yet answered (lib/messaging/send.ts).
export const MESSAGE_STATUSES = [
  "queued",
  "sending",
  "accepted",
  "sent",
  "delivered",
  "read",
  "failed",
  "unknown",
] as const;

const DateRange = {
  senderId: Text(32).describe("Sender phone number; omitted with a global token: all senders"),
  dateFrom: DateOnly.describe("From this day (UTC), YYYY-MM-DD"),
  dateTo: DateOnly.describe("Up to and including this day (UTC), YYYY-MM-DD"),
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
  sendRoute: z.preprocess(lower, z.enum(SEND_ROUTES).optional()).describe("v3 only"),
  directSendCategory: z.preprocess(lower, z.enum(DIRECT_SEND_CATEGORIES).optional()).describe("v3 only"),
}).superRefine(orderedDates);
export type MessageReportInput = z.infer<typeof MessageReportQuery>;

export const DeliveryAnalyticsQuery = z
  .object({ ...DateRange, sendRoute: z.preprocess(lower, z.enum(SEND_ROUTES).optional()).describe("v3 only") })
  .superRefine(orderedDates);
export type DeliveryAnalyticsInput = z.infer<typeof DeliveryAnalyticsQuery>;

export const TemplateAnalyticsQuery = PageQuery.extend({ ...DateRange, templateName: Text(512) }).superRefine(
  orderedDates,
);
export type TemplateAnalyticsInput = z.infer<typeof TemplateAnalyticsQuery>;
