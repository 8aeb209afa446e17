// The support-report data of bench/reports.ts, seeded with set-based SQL (INSERT ... SELECT over
// generate_series): accounts with their conversations, thread messages and the figures the
// product keeps per conversation (docs/reports.md "Definitions"): SupportPeriod (one per
// conversation, a second, reopened one for every tenth), SupportResponse (the first response
// and two next ones of each answered period), CsatSurvey (a third of the closes by a member,
// three in five answered), SlaBreach (missed first responses), ConversationLabel and the
// heatmap's SupportInboundCount.
//
// Every figure comes from a deterministic hash of the conversation's number, so a seed is the
// same each time. Conversations start over the 365 days up to LAST_DAY, 70% of them in the
// 08:00-18:00 UTC hours; each has MESSAGES messages 90 s apart, inbound and outbound in turn.
// The tables' secondary indexes are dropped for the load and built once after it (building an
// index once is much faster than maintaining it per row), foreign-key triggers are off for the
// load (session_replication_role = replica), and each table is VACUUM ANALYZEd at the end (the
// visibility map lets the reports' index-only scans skip the heap, as on a settled database).
import type pg from "pg";

/** Weekdays 09:00-17:00 in Berlin: the accounts' business hours (the seeded business seconds are a share of each wait). */
const BUSINESS_HOURS = {
  timezone: "Europe/Berlin",
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
  holidays: [],
};

/** The last day with data (UTC); the reports are asked for ranges ending on it. */
export const LAST_DAY = "2026-11-28";
const FIRST_DAY = "2025-11-29"; // 365 days up to LAST_DAY
/** Members who answer and close (their emails are the report's member keys). */
const MEMBERS = 20;
const LABELS = 8;

export type Account = {
  /** One lower-case letter: part of every id of the account's rows. */
  tag: string;
  customerId: string;
  name: string;
  conversations: number;
  /** Messages per conversation. */
  messages: number;
};

/** The tables seeded, in the order their rows are written. */
const TABLES = [
  "Conversation",
  "ConversationMessage",
  "Label",
  "ConversationLabel",
  "SupportLabelSet",
  "SupportPeriod",
  "SupportResponse",
  "CsatSurvey",
  "SlaBreach",
  "SupportInboundCount",
];

const senderIds = (a: Account) => [`cbenchrsender${a.tag}0000000001`, `cbenchrsender${a.tag}0000000002`] as const;

/** Seeds the accounts (each in one pass per table); returns after the indexes are built and the tables analysed. */
export async function seedReports(c: pg.Client, accounts: Account[], log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const step = async (what: string, sql: string, values: unknown[] = []) => {
    const t0 = Date.now();
    const r = await c.query(sql, values);
    log(`  ${what}: ${r.rowCount?.toLocaleString("en-US") ?? "done"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  try {
    await c.query("SET session_replication_role = replica");
  } catch {
    log("  (not a superuser: foreign keys are checked during the load, which is slower)");
  }
  await c.query("SET maintenance_work_mem = '512MB'");
  await c.query("SET work_mem = '256MB'");
  // Secondary indexes (not those of a constraint: the primary keys stay) are dropped for the load.
  const indexes = (
    await c.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
      [TABLES],
    )
  ).rows;
  for (const ix of indexes) await c.query(`DROP INDEX "${ix.indexname}"`);

  await c.query("DROP TABLE IF EXISTS bench_conv, bench_period, bench_labels");
  await c.query(`CREATE UNLOGGED TABLE bench_conv (g int, tag text, customer_id text, sender_id text, conv_id text,
    h bigint, started timestamp(3))`);
  for (const a of accounts) {
    const [s1, s2] = senderIds(a);
    // Business hours, so the reports compute the business-hours variants too (docs/reports.md "Business hours").
    await c.query(
      `INSERT INTO "Customer" ("id", "name", "plan", "businessHours", "updatedAt") VALUES ($1, $2, 'pro', $3, now())`,
      [a.customerId, a.name, JSON.stringify(BUSINESS_HOURS)],
    );
    for (const [i, id] of [s1, s2].entries()) {
      await c.query(
        `INSERT INTO "Sender" ("id", "customerId", "phoneNumber", "phoneNumberId", "isDefault", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, now())`,
        [id, a.customerId, `+1555${a.tag.charCodeAt(0)}0000${i + 1}`, `10${a.tag.charCodeAt(0)}00000${i + 1}`, i === 0],
      );
    }
    // h: a hash of the number (Knuth's multiplicative), whose digits pick each figure.
    await step(
      `${a.name}: conversation plan`,
      `INSERT INTO bench_conv
       SELECT g, $1::text, $2::text, CASE WHEN g % 2 = 0 THEN $3::text ELSE $4::text END,
         'conv_' || $1::text || lpad(g::text, 9, '0'), h,
         ($5::date + ((g - 1)::bigint * 365 / $6::int)::int
           + (CASE WHEN h % 10 < 7 THEN 28800 + h / 10 % 36000 ELSE h / 10 % 86400 END) * interval '1 second')::timestamp(3)
       FROM (SELECT g, (g::bigint * 2654435761) % 4294967296 AS h FROM generate_series(1, $6::int) g) s`,
      [a.tag, a.customerId, s1, s2, FIRST_DAY, a.conversations],
    );
    await c.query(
      `INSERT INTO "Label" ("id", "customerId", "name", "nameKey", "color", "updatedAt")
       SELECT 'lbl_' || $1::text || i, $2::text, 'Label ' || i, 'label ' || i, '#3366cc', now() FROM generate_series(1, $3::int) i`,
      [a.tag, a.customerId, LABELS],
    );
  }
  // Periods: the first of every conversation, and a reopened second one 3 days later for every tenth
  // (its first closed: a resolution is at most ~2.1 days). hk: the period's own hash.
  await step(
    "period plan",
    `CREATE UNLOGGED TABLE bench_period AS
     SELECT x.*, 'sp_' || x.tag || lpad(x.g::text, 9, '0') || '_' || x.k AS pid, x.k = 2 AS reopened,
       x.hk % 10 < 9 AS answered,
       (20 + (x.hk / 7 % 97) * (x.hk / 11 % 89))::int AS frs,
       CASE WHEN x.hk / 13 % 8 = 0 THEN 'api' ELSE 'agent' || (x.hk / 17 % ${MEMBERS} + 1) || '@bench.example' END AS responder,
       x.k = 1 AND (x.hk / 19 % 10 < 8 OR x.g % 10 = 0) AS resolved,
       (20 + (x.hk / 7 % 97) * (x.hk / 11 % 89) + 600 + x.hk / 23 % 172800)::int AS res,
       CASE WHEN x.hk / 29 % 9 = 0 THEN NULL ELSE 'agent' || (x.hk / 31 % ${MEMBERS} + 1) || '@bench.example' END AS closed_by
     FROM (SELECT c.*, v.k,
         CASE WHEN v.k = 1 THEN c.started ELSE c.started + interval '3 days' END AS pstart,
         CASE WHEN v.k = 1 THEN c.h ELSE (c.h * 40503 + 12345) % 4294967296 END AS hk
       FROM bench_conv c CROSS JOIN (VALUES (1), (2)) v(k) WHERE v.k = 1 OR c.g % 10 = 0) x`,
  );
  await step(
    "conversations",
    `INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "contactName", "status",
       "lastMessageAt", "lastInboundAt", "lastMessagePreview", "closedAt", "createdAt", "updatedAt")
     SELECT p.conv_id, p.customer_id, p.sender_id,
       '+1' || (776 + ascii(p.tag) - 96) || lpad(p.g::text, 8, '0'), 'Contact ' || p.g,
       (CASE WHEN p.resolved AND p.g % 10 <> 0 THEN 'CLOSED' ELSE 'OPEN' END)::"ConversationStatus",
       p.started + interval '810 seconds', p.started + interval '720 seconds', 'Hello',
       CASE WHEN p.resolved AND p.g % 10 <> 0 THEN p.pstart + p.res * interval '1 second' END,
       p.started, p.started
     FROM bench_period p WHERE p.k = 1`,
  );
  for (const a of accounts) {
    // Chunks of 100,000 conversations (1M messages): progress shows, and no single statement runs for minutes.
    const chunk = 100_000;
    for (let from = 1; from <= a.conversations; from += chunk) {
      const to = Math.min(a.conversations, from + chunk - 1);
      await step(
        `${a.name}: messages of conversations ${from.toLocaleString("en-US")}-${to.toLocaleString("en-US")}`,
        `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "content",
           "sentBy", "createdAt")
         SELECT 'cmsg_' || c.tag || lpad((c.g::bigint * $4::int + k)::text, 12, '0'), c.customer_id, c.conv_id,
           CASE WHEN k % 2 = 0 THEN 'inbound' ELSE 'outbound' END, 'text',
           CASE WHEN k % 2 = 0 THEN '{"text":{"body":"Hello, my order is late"}}'::jsonb END,
           CASE WHEN k % 2 = 0 THEN 'contact' ELSE (ARRAY['dashboard','dashboard','api','chatbot'])[1 + (c.h / 3 + k) % 4] END,
           c.started + k * interval '90 seconds'
         FROM bench_conv c CROSS JOIN generate_series(0, $4::int - 1) k
         WHERE c.tag = $1 AND c.g BETWEEN $2::int AND $3::int ORDER BY c.g, k`,
        [a.tag, from, to, a.messages],
      );
    }
  }
  // The heatmap's counts per sender and 15 minutes (the product's triggers keep them; they are off for
  // the load): the statement the migration that added them runs on the messages already stored. What
  // the triggers wrote when they could not be turned off (not a superuser) goes first, else it would count twice.
  await c.query(`DELETE FROM "SupportInboundCount"`);
  await step(
    "heatmap counts",
    `INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound", "merged")
     SELECT m."customerId", c."senderId", date_bin('15 minutes', m."createdAt", timestamp '2000-01-01'), count(*)::int, true
     FROM "ConversationMessage" m JOIN "Conversation" c ON c."id" = m."conversationId"
     WHERE m."direction" = 'inbound'
     GROUP BY 1, 2, 3`,
  );
  const counted = await c.query<{ counted: string; stored: string }>(
    `SELECT (SELECT COALESCE(sum("inbound"), 0) FROM "SupportInboundCount")::text AS counted,
       (SELECT count(*) FROM "ConversationMessage" WHERE "direction" = 'inbound')::text AS stored`,
  );
  const totals = counted.rows[0];
  if (!totals || totals.counted !== totals.stored)
    throw new Error(`the heatmap counts ${totals?.counted} inbound messages, ${totals?.stored} are stored`);
  await step(
    "conversation labels",
    `INSERT INTO "ConversationLabel" ("conversationId", "labelId", "customerId", "createdAt")
     SELECT c.conv_id, 'lbl_' || c.tag || l.i, c.customer_id, c.started
     FROM bench_conv c CROSS JOIN LATERAL (
       SELECT 1 + c.h / 67 % 10 AS i UNION SELECT 1 + c.h / 71 % ${LABELS} WHERE c.h / 73 % 4 = 0) l
     WHERE l.i <= ${LABELS}`,
  );
  // The label ids each period and response carries, and their set (the product's triggers keep them;
  // they are off for the load; migration 20261203175827_support_label_sets names a set by its ids).
  await step(
    "label ids per conversation",
    `CREATE UNLOGGED TABLE bench_labels AS SELECT "conversationId" AS labelled, array_agg("labelId" ORDER BY "labelId") AS ids
     FROM "ConversationLabel" GROUP BY 1`,
  );
  await c.query("CREATE INDEX ON bench_labels (labelled)");
  await step(
    "label sets",
    `INSERT INTO "SupportLabelSet" ("customerId", "id", "labelIds")
     SELECT DISTINCT c."customerId", "switchboard_support_label_set_id"(l.ids), l.ids
     FROM bench_labels l JOIN "Conversation" c ON c."id" = l.labelled`,
  );
  await step(
    "support periods",
    `INSERT INTO "SupportPeriod" ("id", "customerId", "senderId", "conversationId", "startedAt", "waitingSince",
       "firstResponseAt", "firstResponseSeconds", "firstResponseBusinessSeconds", "firstResponder", "resolvedAt",
       "resolutionSeconds", "resolutionBusinessSeconds", "closedBy", "reopened", "inboundCount", "replyCount", "labelIds",
       "labelSetId")
     SELECT pid, customer_id, sender_id, conv_id, pstart,
       CASE WHEN NOT answered AND NOT resolved THEN pstart END,
       CASE WHEN answered THEN pstart + frs * interval '1 second' END,
       CASE WHEN answered THEN frs END,
       CASE WHEN answered THEN frs * (1 + hk / 79 % 4) / 4 END,
       CASE WHEN answered THEN responder END,
       CASE WHEN resolved THEN pstart + res * interval '1 second' END,
       CASE WHEN resolved THEN res END,
       CASE WHEN resolved THEN res * (1 + hk / 83 % 4) / 4 END,
       CASE WHEN resolved THEN closed_by END,
       reopened, 5, CASE WHEN answered THEN 5 ELSE 0 END, COALESCE(l.ids, ARRAY[]::text[]),
       "switchboard_support_label_set_id"(l.ids)
     FROM bench_period p LEFT JOIN bench_labels l ON l.labelled = p.conv_id ORDER BY pstart`,
  );
  // The first response, then two next responses (a wait 15 and 30 minutes after it).
  await step(
    "support responses",
    `INSERT INTO "SupportResponse" ("id", "customerId", "senderId", "periodId", "first", "waitedFrom", "respondedAt",
       "seconds", "businessSeconds", "responder", "labelIds", "labelSetId")
     SELECT 'sr_' || substr(p.pid, 4) || '_' || j, p.customer_id, p.sender_id, p.pid, j = 0, w.waited,
       w.waited + w.secs * interval '1 second', w.secs, w.secs * (1 + (p.hk / 89 + j) % 4) / 4,
       CASE WHEN j = 2 THEN 'agent' || (p.hk / 43 % ${MEMBERS} + 1) || '@bench.example' ELSE p.responder END,
       COALESCE(l.ids, ARRAY[]::text[]), "switchboard_support_label_set_id"(l.ids)
     FROM bench_period p LEFT JOIN bench_labels l ON l.labelled = p.conv_id CROSS JOIN generate_series(0, 2) j
     CROSS JOIN LATERAL (SELECT
       CASE WHEN j = 0 THEN p.pstart ELSE p.pstart + (p.frs + j * 900) * interval '1 second' END AS waited,
       CASE WHEN j = 0 THEN p.frs ELSE (10 + (p.hk / 41 + j * 7919) % 1800)::int END AS secs) w
     WHERE p.answered ORDER BY w.waited`,
  );
  await step(
    "CSAT surveys",
    `INSERT INTO "CsatSurvey" ("id", "customerId", "senderId", "conversationId", "periodId", "memberEmail", "closedAt",
       "status", "channel", "score", "respondedAt", "createdAt")
     SELECT 'csat_' || substr(p.pid, 4), p.customer_id, p.sender_id, p.conv_id, p.pid, p.closed_by, r.closed, 'SENT',
       'buttons', s.score, CASE WHEN s.score IS NOT NULL THEN r.closed + interval '5 minutes' END, r.closed
     FROM bench_period p
     CROSS JOIN LATERAL (SELECT p.pstart + p.res * interval '1 second' AS closed) r
     CROSS JOIN LATERAL (SELECT CASE WHEN p.hk / 53 % 5 < 3 THEN (1 + p.hk / 59 % 3)::int END AS score) s
     WHERE p.resolved AND p.closed_by IS NOT NULL AND p.hk / 47 % 3 = 0 ORDER BY r.closed`,
  );
  await step(
    "SLA breaches",
    `INSERT INTO "SlaBreach" ("id", "customerId", "senderId", "conversationId", "periodId", "policyId", "target", "key",
       "dueAt", "breachedAt")
     SELECT 'slab_' || substr(p.pid, 4), p.customer_id, p.sender_id, p.conv_id, p.pid, 'sla_bench', 'first_response',
       p.pid || ':first_response', p.pstart + interval '1 hour', p.pstart + interval '1 hour'
     FROM bench_period p WHERE (NOT p.answered OR p.frs > 3600) AND p.hk / 61 % 3 = 0 ORDER BY p.pstart`,
  );
  await c.query("DROP TABLE bench_conv, bench_period, bench_labels");
  const t0 = Date.now();
  for (const ix of indexes) await c.query(ix.indexdef);
  log(`  ${indexes.length} indexes built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = Date.now();
  for (const t of TABLES) await c.query(`VACUUM ANALYZE "${t}"`);
  log(`  vacuumed and analysed in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  await c.query("RESET session_replication_role").catch(() => undefined);
  log(`  seeded in ${Math.round((Date.now() - started) / 1000)} s`);
}
