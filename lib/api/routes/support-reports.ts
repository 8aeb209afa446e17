// The support reports (limit class "reports"; docs/reports.md): figures of conversation
// periods, the inbound heatmap and the CSAT answers. A global token without senderId reads every
// sender; a number-scoped token its own. GET|POST /settings/csat: the account's CSAT setting
// (a global token only).
import { pageOf } from "@/lib/core/pagination";
import { getCsatSetting, setCsatSetting } from "@/lib/domains/support/csat";
import { listCsatResponses } from "@/lib/domains/support/csat-report";
import { CsatListPublic, CsatListQuery, CsatSettingBody, CsatSettingPublic } from "@/lib/domains/support/csat-schemas";
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

const settings = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Reports",
  tokenScope: "global",
  permission: "reports",
} as const;

export const supportReportRoutes: AnyRoute[] = [
  route({
    ...common,
    path: "/reports/support",
    example: examples.getReportsSupport,
    summary: "Read the support report",
    description:
      "First response, next response and resolution times (median and 90th percentile, in seconds, each also in business hours: businessMedian and businessP90, null when the account has no business hours), conversations, replies and closes, CSAT answers and SLA breaches, by day, week, sender, member or label, with the totals. By label a conversation counts in each label it carries (key \"\": none), so the groups may add up to more than the totals. The label and memberId filters narrow every figure. A person's reply counts (a member or the API); a chatbot's, a rule's or a broadcast's never does.",
    query: SupportReportQuery,
    errors: ["LABEL_NOT_FOUND"],
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
  route({
    ...common,
    path: "/reports/csat",
    example: examples.getReportsCsat,
    summary: "List CSAT responses",
    description:
      "The contacts' answers to the satisfaction survey sent when a person closed their conversation, newest first: score (1 unhappy, 2 neutral, 3 happy), the comment, and the member who closed it.",
    query: CsatListQuery,
    response: CsatListPublic,
    handler: async ({ principal, sender, query }) => {
      const { responses, total } = await listCsatResponses(principal, sender, query);
      return ok("CSAT responses retrieved", pageOf("responses", responses, query, total));
    },
  }),
  route({
    ...settings,
    method: "GET",
    path: "/settings/csat",
    example: examples.getSettingsCsat,
    summary: "Read the CSAT setting",
    description:
      "Whether a closed conversation asks the contact for a rating, the question, and the template used outside the window.",
    response: CsatSettingPublic,
    handler: async ({ principal }) => ok("CSAT setting retrieved", await getCsatSetting(principal)),
  }),
  route({
    ...settings,
    method: "POST",
    path: "/settings/csat",
    example: examples.postSettingsCsat,
    summary: "Set the CSAT setting",
    description:
      "enabled, question and/or template {name, language} (an approved UTILITY template of the account; null: none, so no survey once the window is closed).",
    body: CsatSettingBody,
    response: CsatSettingPublic,
    handler: async ({ principal, body }) => ok("CSAT setting updated", await setCsatSetting(principal, body)),
  }),
];
