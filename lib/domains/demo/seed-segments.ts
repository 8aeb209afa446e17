// The demo's segments (docs/automation.md "Segments"): VIP-labelled contacts (the VIP label) and the
// contacts who wrote in the last 30 days, both opted in, so the new-broadcast page has
// segments to pick with a live count at first start. Once per account: an account that
// already has segments keeps its own.
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { SegmentRules } from "@/lib/domains/broadcasts/segment-schemas";

const DEMO_SEGMENTS = [
  { name: "VIP-labelled contacts", rules: { labels: ["VIP"], optedIn: true } },
  { name: "Wrote in the last 30 days", rules: { lastInboundWithin: "P30D", optedIn: true } },
] as const;

export async function ensureSegments(customerId: string): Promise<void> {
  if ((await db.segment.count({ where: { customerId } })) > 0) return;
  await db.segment.createMany({
    data: DEMO_SEGMENTS.map((s) => ({
      id: newId("seg_"),
      customerId,
      name: s.name,
      rules: SegmentRules.parse(s.rules),
    })),
  });
}
