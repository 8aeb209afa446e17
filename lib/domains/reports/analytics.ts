// GET /reports/analytics/delivery (rates by day, and on v3 by send route) and
// /reports/analytics/templates (per template; v3 attributes the provider template id).

import { pageOf, skipTake } from "@/lib/core/pagination";
import type { Version } from "@/lib/core/version";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { FROM_SQL, STATUS_SQL, scopeConditions, v3Only, whereSql } from "./filters";
import type { DeliveryAnalyticsInput, TemplateAnalyticsInput } from "./schemas";

export type Counts = { total: number; queued: number; sent: number; delivered: number; read: number; failed: number };

// Sent counts everything the provider reported as sent or beyond; delivered includes read.
const COUNT_COLUMNS = Prisma.sql`
  count(*)::int AS "total",
  count(*) FILTER (WHERE ${STATUS_SQL} = 'queued')::int AS "queued",
  count(*) FILTER (WHERE ${STATUS_SQL} IN ('sent', 'delivered', 'read'))::int AS "sent",
  count(*) FILTER (WHERE ${STATUS_SQL} IN ('delivered', 'read'))::int AS "delivered",
  count(*) FILTER (WHERE ${STATUS_SQL} = 'read')::int AS "read",
  count(*) FILTER (WHERE ${STATUS_SQL} = 'failed')::int AS "failed"`;

const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000);

/** Counts plus rates; rates are over messages that left the queue. */
export function withRates(c: Counts) {
  const base = c.total - c.queued;
  return {
    ...c,
    deliveryRate: ratio(c.delivered, base),
    readRate: ratio(c.read, base),
    failureRate: ratio(c.failed, base),
  };
}

function add(into: Counts, c: Counts) {
  into.total += c.total;
  into.queued += c.queued;
  into.sent += c.sent;
  into.delivered += c.delivered;
  into.read += c.read;
  into.failed += c.failed;
}
const zero = (): Counts => ({ total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0 });

export async function deliveryAnalytics(
  p: Principal,
  sender: Sender | undefined,
  q: DeliveryAnalyticsInput,
  version: Version,
) {
  const where = scopeConditions(p, sender, q);
  const sendRoute = v3Only(version, q.sendRoute);
  if (sendRoute) where.push(Prisma.sql`m."sendRoute" = ${sendRoute}`);
  const rows = await db.$queryRaw<DeliveryRow[]>`
    SELECT to_char(date_trunc('day', m."createdAt"), 'YYYY-MM-DD') AS "day", m."sendRoute", ${COUNT_COLUMNS}
    FROM ${FROM_SQL} ${whereSql(where)}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return toPublicDeliveryStats(rows, version);
}

/** Counts per day and send route, in the order of days and routes. */
export type DeliveryRow = Counts & { day: string; sendRoute: string };

/** The totals, by day and (v3) by send route, each with its rates. */
export function toPublicDeliveryStats(rows: readonly DeliveryRow[], version: Version) {
  const totals = zero();
  const byDay = new Map<string, Counts>();
  const byRoute = new Map<string, Counts>();
  for (const r of rows) {
    add(totals, r);
    const d = byDay.get(r.day) ?? zero();
    add(d, r);
    byDay.set(r.day, d);
    const s = byRoute.get(r.sendRoute) ?? zero();
    add(s, r);
    byRoute.set(r.sendRoute, s);
  }
  return {
    totals: withRates(totals),
    byDay: [...byDay].map(([date, c]) => ({ date, ...withRates(c) })),
    ...(version === "v3"
      ? { bySendRoute: [...byRoute].map(([route, c]) => ({ sendRoute: route, ...withRates(c) })) }
      : {}),
  };
}

export type TemplateRow = Counts & {
  templateName: string;
  templateLanguage: string | null;
  metaTemplateId: string | null;
  pricingCategory: string | null;
};

export async function templateAnalytics(
  p: Principal,
  sender: Sender | undefined,
  q: TemplateAnalyticsInput,
  version: Version,
) {
  const where = scopeConditions(p, sender, q);
  where.push(Prisma.sql`m."templateName" IS NOT NULL`);
  if (q.templateName) where.push(Prisma.sql`m."templateName" = ${q.templateName}`);
  const { skip, take } = skipTake(q);
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM ${FROM_SQL} ${whereSql(where)} GROUP BY m."templateName", m."templateLanguage") g`,
    db.$queryRaw<TemplateRow[]>`
      SELECT m."templateName", m."templateLanguage", max(m."metaTemplateId") AS "metaTemplateId",
        max(m."pricingCategory") AS "pricingCategory", ${COUNT_COLUMNS}
      FROM ${FROM_SQL} ${whereSql(where)}
      GROUP BY m."templateName", m."templateLanguage"
      ORDER BY count(*) DESC, m."templateName" ASC, m."templateLanguage" ASC
      LIMIT ${take} OFFSET ${skip}`,
  ]);
  const templates = rows.map((r) => toPublicTemplateStats(r, version));
  return pageOf("templates", templates, q, counted[0]?.n ?? 0);
}

/** One template's row of the analytics; v3 attributes the provider template id. */
export function toPublicTemplateStats(r: TemplateRow, version: Version) {
  const { templateName, templateLanguage, metaTemplateId, pricingCategory, ...counts } = r;
  return {
    templateName,
    language: templateLanguage,
    category: pricingCategory,
    ...withRates(counts),
    ...(version === "v3" ? { metaTemplateId } : {}),
  };
}
