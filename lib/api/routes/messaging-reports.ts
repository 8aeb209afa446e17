// Reports (limit class "reports"): the message log and the delivery and template analytics.
// A global token without senderId reads all senders (scope user); a number-scoped token
// reads its own sender only.
import { listOf } from "@/lib/core/pagination";
import { deliveryAnalytics, templateAnalytics } from "@/lib/domains/reports/analytics";
import * as examples from "@/lib/domains/reports/examples";
import { scopeBlock } from "@/lib/domains/reports/filters";
import { listMessageReport, toPublicMessageReport } from "@/lib/domains/reports/messages";
import {
  DeliveryAnalyticsPublic,
  DeliveryAnalyticsQuery,
  MessageReportPublic,
  MessageReportQuery,
  TemplateAnalyticsPublic,
  TemplateAnalyticsQuery,
} from "@/lib/domains/reports/schemas";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "reports",
  feature: "messaging",
  tag: "Reports",
  tokenScope: "any",
  method: "GET",
  sender: "resolve",
  senderOptions: { useDefault: false, requireSetup: false },
} as const;

export const messagingReportRoutes: AnyRoute[] = [
  route({
    ...common,
    path: "/reports/messages",
    permission: "messages.read",
    example: examples.getReportsMessages,
    summary: "Read the message report",
    description: "The message log with delivery status; v3 adds the send route and Direct Send fields and filters.",
    query: MessageReportQuery,
    response: MessageReportPublic,
    handler: async ({ principal, sender, query, version }) => {
      const { rows, pagination } = await listMessageReport(principal, sender, query, version);
      const messages = rows.map((r) => toPublicMessageReport(r, version));
      return ok("Message report retrieved", { ...scopeBlock(sender), ...listOf("messages", messages), pagination });
    },
  }),
  route({
    ...common,
    path: "/reports/analytics/delivery",
    permission: "billing",
    example: examples.getReportsAnalyticsDelivery,
    summary: "Read delivery analytics",
    description: "Delivery, read and failure rates by day; v3 also by send route.",
    query: DeliveryAnalyticsQuery,
    response: DeliveryAnalyticsPublic,
    handler: async ({ principal, sender, query, version }) =>
      ok("Delivery analytics retrieved", {
        ...scopeBlock(sender),
        dateFrom: query.dateFrom ?? null,
        dateTo: query.dateTo ?? null,
        ...(await deliveryAnalytics(principal, sender, query, version)),
      }),
  }),
  route({
    ...common,
    path: "/reports/analytics/templates",
    permission: "billing",
    example: examples.getReportsAnalyticsTemplates,
    summary: "Read template analytics",
    description: "Per-template delivery and read rates; v3 adds the provider template id.",
    query: TemplateAnalyticsQuery,
    response: TemplateAnalyticsPublic,
    handler: async ({ principal, sender, query, version }) =>
      ok("Template analytics retrieved", {
        ...scopeBlock(sender),
        ...(await templateAnalytics(principal, sender, query, version)),
      }),
  }),
];
