// The OpenAPI examples of the support report routes (docs/openapi.md "Adding a route").
import type { CsatResponse, CsatSetting } from "./csat-schemas";
import type { SupportFigures, SupportHeatmap, SupportReport } from "./schemas";

const figures: SupportFigures = {
  conversations: 12,
  reopened: 1,
  inbound: 41,
  outbound: 30,
  // A wait that crossed a closed night counts only its open hours in the business figures.
  firstResponse: { median: 95, p90: 610.5, businessMedian: 80, businessP90: 420 },
  nextResponse: { median: 140, p90: 900, businessMedian: 140, businessP90: 600 },
  resolved: 10,
  resolution: { median: 5400, p90: 20_300, businessMedian: 3600, businessP90: 9000 },
  csat: { responses: 6, score: 66.7 },
  slaBreaches: 3,
};

// By label: the conversation labelled both "refund" and "VIP" counts in both groups and once in
// the totals; "" holds the conversations without a label.
const report: SupportReport = {
  dateFrom: "2026-11-23",
  dateTo: "2026-11-24",
  timeZone: "Europe/Berlin",
  groupBy: "label",
  senderId: null,
  label: null,
  memberId: null,
  businessHours: true,
  totals: figures,
  groups: [
    {
      key: "",
      ...figures,
      conversations: 7,
      reopened: 0,
      inbound: 22,
      outbound: 17,
      resolved: 6,
      csat: { responses: 4, score: 75 },
      slaBreaches: 1,
    },
    {
      key: "refund",
      ...figures,
      conversations: 3,
      reopened: 1,
      inbound: 12,
      outbound: 8,
      resolved: 2,
      csat: { responses: 1, score: 0 },
      slaBreaches: 2,
    },
    {
      key: "VIP",
      ...figures,
      conversations: 3,
      reopened: 0,
      inbound: 9,
      outbound: 7,
      resolved: 3,
      csat: { responses: 1, score: 100 },
      slaBreaches: 1,
    },
  ],
};

export const getReportsSupport = {
  query: { dateFrom: "2026-11-23", dateTo: "2026-11-24", timeZone: "Europe/Berlin", groupBy: "label" },
  response: report,
};

const heatmap: SupportHeatmap = {
  dateFrom: "2026-11-23",
  dateTo: "2026-11-29",
  timeZone: "UTC",
  senderId: null,
  cells: Array.from({ length: 168 }, (_, i) => ({
    weekday: Math.floor(i / 24) + 1,
    hour: i % 24,
    inbound: i % 24 >= 9 && i % 24 < 18 ? 3 : 0,
  })),
};

export const getReportsSupportHeatmap = {
  query: { dateFrom: "2026-11-23", dateTo: "2026-11-29" },
  response: heatmap,
};

const setting: CsatSetting = {
  enabled: true,
  question: "How would you rate our support?",
  template: { name: "support_feedback", language: "en_US" },
};

export const getSettingsCsat = { response: setting };

export const postSettingsCsat = {
  request: { enabled: true, question: "How would you rate our support?" },
  message: "CSAT setting updated",
  response: setting,
};

const response: CsatResponse = {
  conversationUid: "conv_3f9a2c41d0e8",
  memberId: "agent@example.com",
  score: 3,
  comment: "Quick and friendly, thanks!",
  at: "2026-11-24T09:12:40.000Z",
  contactPhoneNumber: "+15550100002",
  senderId: "+15550100001",
};

export const getReportsCsat = {
  query: { dateFrom: "2026-11-23", dateTo: "2026-11-24" },
  response: {
    responses: [response],
    items: [response],
    pagination: { page: 1, limit: 50, total: 1, totalPages: 1, count: 1, hasMore: false },
  },
};
