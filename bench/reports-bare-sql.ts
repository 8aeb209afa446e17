// The SQL of the bare baseline of bench/reports.ts (bench/reports-bare-server.ts runs it; the
// bench EXPLAINs it): written from scratch, none of the product's report code.
// $1 customer, $2 dateFrom, $3 dateTo, $4 time zone.
const lo = `((($2::date)::timestamp AT TIME ZONE $4) AT TIME ZONE 'UTC')`;
const hi = `((($3::date + 1)::timestamp AT TIME ZONE $4) AT TIME ZONE 'UTC')`;
const inRange = (col: string) => `t."customerId" = $1 AND t."${col}" >= ${lo} AND t."${col}" < ${hi}`;

export type Family = "started" | "resolved" | "next" | "csat" | "breaches";
const TIME: Record<Family, string> = {
  started: "startedAt",
  resolved: "resolvedAt",
  next: "respondedAt",
  csat: "respondedAt",
  breaches: "breachedAt",
};
const MEMBER: Record<Family, string> = {
  started: `COALESCE(t."firstResponder", 'unanswered')`,
  resolved: `COALESCE(t."closedBy", 'api')`,
  next: `t."responder"`,
  csat: `COALESCE(t."memberEmail", 'api')`,
  breaches: `COALESCE(sp."firstResponder", 'unanswered')`,
};

/**
 * By day or week: the zone's midnights of the range (weeks from the Monday on or before $2) as UTC
 * instants in `cal`, "s" in order and "l" their dates; a row's group is its position among them.
 * One binary search per row instead of converting every row's instant to the zone's time.
 */
const calendar = (groupBy: string) => `cal AS (
  SELECT array_agg((d AT TIME ZONE $4) AT TIME ZONE 'UTC' ORDER BY d) AS s, array_agg(d::date::text ORDER BY d) AS l
  FROM generate_series(${groupBy === "week" ? "date_trunc('week', $2::date::timestamp)" : "$2::date::timestamp"}, $3::date::timestamp,
    interval '1 ${groupBy === "week" ? "week" : "day"}') d)`;
const byCalendar = (groupBy: string) => groupBy === "day" || groupBy === "week";

function key(groupBy: string, f: Family): string {
  if (groupBy === "member") return MEMBER[f];
  if (groupBy === "sender") return `t."senderId"`;
  return `width_bucket(t."${TIME[f]}", (SELECT s FROM cal))`;
}

const TABLE: Record<Family, string> = {
  started: "SupportPeriod",
  resolved: "SupportPeriod",
  next: "SupportResponse",
  csat: "CsatSurvey",
  breaches: "SlaBreach",
};

/** FROM of a family: its table (or `source`), the period of a breach by member, the labels of the conversation by label. */
function from(groupBy: string, f: Family, source = `"${TABLE[f]}"`): string {
  let sql = `${source} t`;
  if (f === "breaches" && groupBy === "member") sql += ` LEFT JOIN "SupportPeriod" sp ON sp."id" = t."periodId"`;
  // An unlabelled conversation's rows are the "" group (docs/reports.md "By label"). Periods and
  // responses carry the id of their conversation's set of labels (SupportPeriod/SupportResponse.
  // "labelSetId", which the report indexes carry), whose ids SupportLabelSet holds.
  if (groupBy === "label") {
    sql +=
      f === "csat" || f === "breaches"
        ? ` LEFT JOIN "ConversationLabel" l ON l."conversationId" = t."conversationId"`
        : ` LEFT JOIN "SupportLabelSet" s ON s."customerId" = $1 AND s."id" = t."labelSetId"
            LEFT JOIN LATERAL unnest(s."labelIds") l("labelId") ON true`;
  }
  return sql;
}

/** By label, what each family's aggregates and its label join read of the range's rows (kept in a CTE). */
const LABELLED_COLUMNS: Record<Family, string> = {
  started: `t."reopened", t."inboundCount", t."replyCount", t."firstResponseSeconds", t."firstResponseBusinessSeconds", t."labelSetId"`,
  resolved: `t."resolutionSeconds", t."resolutionBusinessSeconds", t."labelSetId"`,
  next: `t."seconds", t."businessSeconds", t."labelSetId"`,
  csat: `t."score", t."conversationId"`,
  breaches: `t."conversationId"`,
};

const percentiles = (col: string, business: string) =>
  `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${col}), percentile_cont(0.9) WITHIN GROUP (ORDER BY ${col}),
   percentile_cont(0.5) WITHIN GROUP (ORDER BY ${business}), percentile_cont(0.9) WITHIN GROUP (ORDER BY ${business})`;

/** Each family's aggregates as (family, key, total, a, b, c, d, median, p90, businessMedian, businessP90). */
export function reportSqlFor(groupBy: string): string {
  // By label a conversation counts in each of its labels, so the totals are a plain aggregate of their
  // own, over the same rows of the range, read once into a CTE per family.
  const ranges: string[] = [];
  const part = (f: Family, aggregates: string, where = "") => {
    if (groupBy !== "label") {
      const named = byCalendar(groupBy) ? `(SELECT l FROM cal)[k]` : "k::text";
      return `(SELECT '${f}', ${named}, GROUPING(k)::int, ${aggregates}
          FROM (SELECT ${key(groupBy, f)} AS k, t.* FROM ${from(groupBy, f)} WHERE ${inRange(TIME[f])}${where}) t
          GROUP BY GROUPING SETS ((k), ()))`;
    }
    ranges.push(
      `r_${f} AS MATERIALIZED (SELECT ${LABELLED_COLUMNS[f]} FROM "${TABLE[f]}" t WHERE ${inRange(TIME[f])}${where})`,
    );
    return `(SELECT '${f}', l."labelId", 0, ${aggregates} FROM ${from(groupBy, f, `r_${f}`)}
          GROUP BY l."labelId")
        UNION ALL
        (SELECT '${f}', NULL, 1, ${aggregates} FROM r_${f} t)`;
  };
  const parts = [
    part(
      "started",
      `count(*), count(*) FILTER (WHERE t."reopened"), sum(t."inboundCount"), sum(t."replyCount"), ${percentiles('t."firstResponseSeconds"', 't."firstResponseBusinessSeconds"')}`,
    ),
    part(
      "resolved",
      `count(*), NULL::bigint, NULL::bigint, NULL::bigint, ${percentiles('t."resolutionSeconds"', 't."resolutionBusinessSeconds"')}`,
    ),
    part(
      "next",
      `count(*), NULL, NULL, NULL, ${percentiles('t."seconds"', 't."businessSeconds"')}`,
      ` AND NOT t."first"`,
    ),
    part(
      "csat",
      `count(*), count(*) FILTER (WHERE t."score" = 3), NULL, NULL, NULL::float8, NULL::float8, NULL::float8, NULL::float8`,
      ` AND t."score" IS NOT NULL`,
    ),
    part("breaches", "count(*), NULL, NULL, NULL, NULL, NULL, NULL, NULL"),
  ].join("\nUNION ALL\n");
  if (byCalendar(groupBy)) ranges.push(calendar(groupBy));
  return ranges.length ? `WITH ${ranges.join(",\n")}\n${parts}` : parts;
}

export const HEATMAP_SQL = `
  SELECT extract(isodow FROM l)::int AS weekday, extract(hour FROM l)::int AS hour, sum(n)::int AS inbound
  FROM (SELECT (c."bucket" AT TIME ZONE 'UTC') AT TIME ZONE $4 AS l, c."inbound" AS n
    FROM "SupportInboundCount" c
    WHERE c."customerId" = $1 AND c."bucket" >= ${lo} AND c."bucket" < ${hi}) z
  GROUP BY 1, 2`;
