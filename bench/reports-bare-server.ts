// The bare baseline of bench/reports.ts, written from scratch: node:http + pg and the SQL a
// competent engineer would write for the same figures over the same tables (docs/reports.md),
// none of the product's code (no router, auth, zod, Prisma, report module):
//   GET /support?dateFrom&dateTo&timeZone&groupBy=day|week|member|sender|label: ONE statement,
//     each family of figures (periods begun, periods closed, next responses, CSAT answers, SLA
//     breaches) aggregated over its own (customerId, time) index range with GROUPING SETS for
//     the groups and the totals, UNION ALL; the day or week key is the zone's date of the row
//     (a cast, no text formatting per row); sender groups by senderId and names the few groups
//     from the senders read at start; a breach's member comes from a join with its period;
//     label: a conversation's figures count in each label it carries now (ConversationLabel), an
//     unlabelled one's in the "" group, the totals once.
//   GET /heatmap?dateFrom&dateTo&timeZone: the inbound counts per sender and 15 minutes of UTC
//     the product keeps (SupportInboundCount, read as the other families read the figures the
//     product keeps per conversation), each row turned into the zone's weekday and hour (every
//     zone's offset since 1980 is a multiple of 15 minutes), summed.
// The statements are in bench/reports-bare-sql.ts. The answer has the product's figures (the
// same rounding), so bench/reports.ts can check the two agree. PORT, DATABASE_URL, BENCH_CUSTOMER_ID.
import http from "node:http";
import pg from "pg";
import { type Family, HEATMAP_SQL, reportSqlFor } from "./reports-bare-sql";

// JIT compilation off: at these sizes compiling a plan took as long as running it (docs/benchmarks.md);
// random pages priced for solid-state storage, as the product's request connections (docs/database.md).
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: "-c jit=off -c random_page_cost=1.1",
});
const customerId = process.env.BENCH_CUSTOMER_ID ?? "";
/** Group keys by sender and by label: the sender's number, the label's name. */
const names = new Map(
  (
    await pool.query<{ id: string; name: string }>(
      `SELECT "id", "phoneNumber" AS name FROM "Sender" WHERE "customerId" = $1
       UNION ALL SELECT "id", "name" FROM "Label" WHERE "customerId" = $1`,
      [customerId],
    )
  ).rows.map((r) => [r.id, r.name]),
);

/** Business figures only for an account with business hours (docs/reports.md "Business hours"). */
const business =
  (
    await pool.query<{ set: boolean }>(
      `SELECT jsonb_typeof("businessHours") = 'object' AS set FROM "Customer" WHERE "id" = $1`,
      [customerId],
    )
  ).rows[0]?.set === true;

const seconds = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
type Spread = { median: number | null; p90: number | null; businessMedian: number | null; businessP90: number | null };
const nothing = (): Spread => ({ median: null, p90: null, businessMedian: null, businessP90: null });
const figures = () => ({
  conversations: 0,
  reopened: 0,
  inbound: 0,
  outbound: 0,
  firstResponse: nothing(),
  nextResponse: nothing(),
  resolved: 0,
  resolution: nothing(),
  csat: { responses: 0, score: null as number | null },
  slaBreaches: 0,
});
type Row = [
  Family,
  string | null,
  number,
  string,
  string | null,
  string | null,
  string | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

async function supportReport(q: URLSearchParams) {
  const groupBy = q.get("groupBy") ?? "day";
  const { rows } = await pool.query<Row>({
    text: reportSqlFor(groupBy),
    values: [customerId, q.get("dateFrom"), q.get("dateTo"), q.get("timeZone") ?? "UTC"],
    rowMode: "array",
  });
  const totals = figures();
  const groups = new Map<string, ReturnType<typeof figures>>();
  for (const [family, k, total, a, b, c, d, median, p90, bmedian, bp90] of rows) {
    let f = totals;
    if (total === 0) {
      const name = groupBy === "sender" || groupBy === "label" ? (names.get(k ?? "") ?? "") : (k ?? "");
      f = groups.get(name) ?? figures();
      groups.set(name, f);
    }
    const spread: Spread = {
      median: seconds(median),
      p90: seconds(p90),
      businessMedian: business ? seconds(bmedian) : null,
      businessP90: business ? seconds(bp90) : null,
    };
    if (family === "started") {
      Object.assign(f, {
        conversations: Number(a),
        reopened: Number(b),
        inbound: Number(c ?? 0),
        outbound: Number(d ?? 0),
        firstResponse: spread,
      });
    } else if (family === "resolved") Object.assign(f, { resolved: Number(a), resolution: spread });
    else if (family === "next") f.nextResponse = spread;
    else if (family === "csat") {
      const n = Number(a);
      f.csat = { responses: n, score: n > 0 ? Math.round((Number(b) / n) * 1000) / 10 : null };
    } else f.slaBreaches = Number(a);
  }
  return {
    totals,
    groups: [...groups.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([k, f]) => ({ key: k, ...f })),
  };
}

async function heatmap(q: URLSearchParams) {
  const { rows } = await pool.query<{ weekday: number; hour: number; inbound: number }>(HEATMAP_SQL, [
    customerId,
    q.get("dateFrom"),
    q.get("dateTo"),
    q.get("timeZone") ?? "UTC",
  ]);
  const counts = new Map(rows.map((r) => [r.weekday * 24 + r.hour, r.inbound]));
  const cells = [];
  for (let weekday = 1; weekday <= 7; weekday++)
    for (let hour = 0; hour < 24; hour++) cells.push({ weekday, hour, inbound: counts.get(weekday * 24 + hour) ?? 0 });
  return { cells };
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const answer =
      url.pathname === "/support"
        ? supportReport(url.searchParams)
        : url.pathname === "/heatmap"
          ? heatmap(url.searchParams)
          : null;
    if (!answer) {
      res.writeHead(url.pathname === "/" ? 200 : 404).end();
      return;
    }
    answer.then(
      (data) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
      },
      (error: unknown) => {
        console.error(error);
        res.writeHead(500).end(String(error));
      },
    );
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
