// GET /reports/analytics/delivery (rates by day, and on v3 by send route) and
// /reports/analytics/templates (per template; v3 attributes the provider template id).

import { pageOf, skipTake } from "@/lib/core/pagination";
import type { Version } from "@/lib/core/version";
import type { Principal } from "@/lib/domains/auth/principal";
import {
  countsByDayAndRoute,
  countsByTemplate,
  type DayRouteCounts,
  type StatusCounts,
  type TemplateCounts,
} from "@/lib/domains/messages/report-sql";
import type { Sender } from "@/lib/domains/senders/service";
import { scopeFilter, v3Only } from "./filters";
import type { DeliveryAnalyticsInput, TemplateAnalyticsInput } from "./schemas";

const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000);

/** Counts plus rates; rates are over messages that left the queue. */
export function withRates(c: StatusCounts) {
  const base = c.total - c.queued;
  return {
    ...c,
    deliveryRate: ratio(c.delivered, base),
    readRate: ratio(c.read, base),
    failureRate: ratio(c.failed, base),
  };
}

function add(into: StatusCounts, c: StatusCounts) {
  into.total += c.total;
  into.queued += c.queued;
  into.sent += c.sent;
  into.delivered += c.delivered;
  into.read += c.read;
  into.failed += c.failed;
}
const zero = (): StatusCounts => ({ total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0 });

export async function deliveryAnalytics(
  p: Principal,
  sender: Sender | undefined,
  q: DeliveryAnalyticsInput,
  version: Version,
) {
  const rows = await countsByDayAndRoute({ ...scopeFilter(p, sender, q), sendRoute: v3Only(version, q.sendRoute) });
  return toPublicDeliveryStats(rows, version);
}

/** The totals, by day and (v3) by send route, each with its rates. */
export function toPublicDeliveryStats(rows: readonly DayRouteCounts[], version: Version) {
  const totals = zero();
  const byDay = new Map<string, StatusCounts>();
  const byRoute = new Map<string, StatusCounts>();
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

export async function templateAnalytics(
  p: Principal,
  sender: Sender | undefined,
  q: TemplateAnalyticsInput,
  version: Version,
) {
  const { skip, take } = skipTake(q);
  const { rows, total } = await countsByTemplate(
    { ...scopeFilter(p, sender, q), templateName: q.templateName },
    skip,
    take,
  );
  const templates = rows.map((r) => toPublicTemplateStats(r, version));
  return pageOf("templates", templates, q, total);
}

/** One template's row of the analytics; v3 attributes the provider template id. */
export function toPublicTemplateStats(r: TemplateCounts, version: Version) {
  const { templateName, templateLanguage, metaTemplateId, pricingCategory, ...counts } = r;
  return {
    templateName,
    language: templateLanguage,
    category: pricingCategory,
    ...withRates(counts),
    ...(version === "v3" ? { metaTemplateId } : {}),
  };
}
