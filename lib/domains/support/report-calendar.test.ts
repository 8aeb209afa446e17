// The report's days and weeks by position among their first midnights (report.ts calendarOf) put
// every instant in the day or week that converting it to the zone's time puts it in, as the report
// did before: across daylight-saving changes, in a zone whose change is at midnight (Santiago), in
// zones off the hour (Kathmandu, Chatham, St John's), a millisecond either side of each midnight.
// On PGlite and PostgreSQL: the zone rules are each database's own.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { calendarKeys, calendarOf } from "./report";

const ZONES = ["UTC", "Europe/Berlin", "America/Santiago", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"];
// 366 days, both of the northern and the southern changes of 2026; from a Wednesday, so the
// first week starts on the Monday before the range.
const RANGE = { dateFrom: "2025-12-03", dateTo: "2026-12-03" };

describe("the report's calendar", () => {
  for (const unit of ["day", "week"] as const) {
    it.each(ZONES)(`puts every instant in its ${unit} in %s`, async (timeZone) => {
      const r = { ...RANGE, timeZone };
      const lo = Prisma.sql`((${r.dateFrom}::date)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'`;
      const hi = Prisma.sql`((${r.dateTo}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'`;
      const [row] = await db.$queryRaw<{ checked: number; wrong: number; groups: number }[]>`
        WITH ${calendarOf(unit, r)},
        instants AS (
          SELECT x FROM generate_series(${lo}, ${hi} - interval '1 millisecond', interval '17 minutes') x
          UNION ALL SELECT s + e FROM unnest((SELECT "starts" FROM calendar)) s,
            unnest(ARRAY[interval '-1 millisecond', interval '0', interval '1 millisecond']) e),
        keyed AS (
          SELECT (SELECT "labels" FROM calendar)[width_bucket(x, (SELECT "starts" FROM calendar))] AS key,
            to_char(date_trunc(${unit}, (x AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}), 'YYYY-MM-DD') AS expected
          FROM instants WHERE x >= ${lo} AND x < ${hi})
        SELECT count(*)::int AS checked, (count(*) FILTER (WHERE key IS DISTINCT FROM expected))::int AS wrong,
          count(DISTINCT key)::int AS groups
        FROM keyed`;
      expect(row.checked).toBeGreaterThan(30_000);
      expect(row.wrong).toBe(0);
      expect(row.groups).toBe(unit === "day" ? 366 : 53);
      // The keys the report fills with zeros where nothing happened are the calendar's own.
      const [calendar] = await db.$queryRaw<{ labels: string[] }[]>`
        WITH ${calendarOf(unit, r)} SELECT "labels" FROM calendar`;
      expect(calendarKeys(unit, r)).toEqual(calendar?.labels);
    });
  }
});
