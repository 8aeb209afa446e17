// The support reports (limit class "reports"; docs/reports.md): figures of conversation
// periods and the inbound heatmap. A global token without senderId reads every sender; a
// number-scoped token its own.
import * as examples from "@/lib/domains/support/examples";
import { supportHeatmap, supportReport } from "@/lib/domains/support/report";
import {
  SupportHeatmapPublic,
  SupportHeatmapQuery,
  SupportReportPublic,
  SupportReportQuery,
} from "@/lib/domains/support/schemas";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "reports",
  feature: "messaging",
  tag: "Reports",
  tokenScope: "any",
  method: "GET",
  permission: "reports",
  sender: "resolve",
  senderOptions: { useDefault: false, requireSetup: false },
} as const;

export const supportReportRoutes: AnyRoute[] = [
  route({
    ...common,
    path: "/reports/support",
    example: examples.getReportsSupport,
    summary: "Read the support report",
    description:
      "First response, next response and resolution times (median and 90th percentile, in seconds), conversations, replies and closes, by day, week or sender, with the totals. A person's reply counts (a member or the API); a chatbot's, a rule's or a broadcast's never does.",
    query: SupportReportQuery,
    response: SupportReportPublic,
    handler: async ({ principal, sender, query }) =>
      ok("Support report retrieved", await supportReport(principal, sender, query)),
  }),
  route({
    ...common,
    path: "/reports/support/heatmap",
    example: examples.getReportsSupportHeatmap,
    summary: "Read the inbound heatmap",
    description: "Inbound messages per weekday and hour of the time zone, over the range: 168 cells.",
    query: SupportHeatmapQuery,
    response: SupportHeatmapPublic,
    handler: async ({ principal, sender, query }) =>
      ok("Support heatmap retrieved", await supportHeatmap(principal, sender, query)),
  }),
];
