// The public shape of a segment (docs/automation.md "Segments"): every field named here.
import type { Segment } from "@/lib/generated/prisma/client";
import type { SegmentPublic } from "./segment-schemas";
import { rulesOf } from "./segments";

export function toPublicSegment(row: Segment): SegmentPublic {
  const rules = rulesOf(row);
  return {
    segmentUid: row.id,
    uid: row.id,
    name: row.name,
    rules: {
      contactBookUids: rules.contactBookUids,
      filters: rules.filters,
      labels: rules.labels,
      lastInboundWithin: rules.lastInboundWithin,
      optedIn: rules.optedIn,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
