// What a broadcast's row does not hold (docs/broadcasts.md "API"): its live counts, the cost
// billed so far and its template's category. Read for the API's answers and the dashboard's
// pages, and for the counts broadcast.completed carries (lifecycle.ts).
import { db } from "@/lib/db";
import { broadcastCosts } from "@/lib/domains/messages/reads";
import { type BroadcastRow, type Extras, emptyCounts } from "./serializers";

/** Live counts, billed cost and template category of these broadcasts, a few statements for all. */
export async function extrasOf(customerId: string, rows: BroadcastRow[]): Promise<Map<string, Extras>> {
  const out = new Map<string, Extras>();
  if (rows.length === 0) return out;
  const ids = rows.map((r) => r.id);
  const [counts, costs, templates] = await Promise.all([
    db.$queryRawUnsafe<{ id: string; status: string; n: number; replied: number }[]>(
      `SELECT "broadcastId" AS id, status::text AS status, count(*)::int AS n, count(*) FILTER (WHERE replied)::int AS replied
         FROM "BroadcastRecipient" WHERE "broadcastId" = ANY($1::text[]) AND "customerId" = $2 GROUP BY 1, 2`,
      ids,
      customerId,
    ),
    broadcastCosts(customerId, ids),
    db.template.findMany({
      where: { customerId, OR: rows.map((r) => ({ name: r.templateName, language: r.templateLanguage })) },
      select: { name: true, language: true, category: true },
    }),
  ]);
  for (const r of rows) {
    const c = emptyCounts();
    for (const row of counts.filter((x) => x.id === r.id)) {
      c[row.status as keyof typeof c] = row.n;
      c.total += row.n;
      c.replied += row.replied;
    }
    const category =
      templates.find((t) => t.name === r.templateName && t.language === r.templateLanguage)?.category ?? null;
    out.set(r.id, { counts: c, cost: costs.get(r.id) ?? 0, category });
  }
  return out;
}
