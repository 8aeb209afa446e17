import type { SupportFigures } from "./schemas";

/**
 * A group where nothing happened: no period began or closed, nobody replied, no survey answer,
 * no breach. By day and week the report answers every day or week of the range (report.ts
 * calendarKeys), so the dashboard says "No conversations in this period." when every group is
 * quiet rather than drawing rows and lines of zeros (docs/reports.md "The dashboard's Reports page").
 */
export const isQuiet = (g: SupportFigures): boolean =>
  g.conversations === 0 &&
  g.resolved === 0 &&
  g.outbound === 0 &&
  g.nextResponse.median === null &&
  g.csat.responses === 0 &&
  g.slaBreaches === 0;
