// The OpenAPI examples of the support report routes (docs/openapi.md "Adding a route").
import type { SupportFigures, SupportHeatmap, SupportReport } from "./schemas";

const figures: SupportFigures = {
  conversations: 12,
  reopened: 1,
  inbound: 41,
  outbound: 30,
  firstResponse: { median: 95, p90: 610.5 },
  nextResponse: { median: 140, p90: 900 },
  resolved: 10,
  resolution: { median: 5400, p90: 20_300 },
};

const report: SupportReport = {
  dateFrom: "2026-11-23",
  dateTo: "2026-11-24",
  timeZone: "Europe/Berlin",
  groupBy: "day",
  senderId: null,
  totals: figures,
  groups: [
    { key: "2026-11-23", ...figures, conversations: 7, reopened: 0, inbound: 25, outbound: 18, resolved: 6 },
    { key: "2026-11-24", ...figures, conversations: 5, reopened: 1, inbound: 16, outbound: 12, resolved: 4 },
  ],
};

export const getReportsSupport = {
  query: { dateFrom: "2026-11-23", dateTo: "2026-11-24", timeZone: "Europe/Berlin" },
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
