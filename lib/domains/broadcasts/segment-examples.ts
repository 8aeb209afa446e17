// The OpenAPI examples of the segment routes (docs/openapi.md "Adding a route"): one sample
// segment through the serializer the routes answer with.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import type { Segment } from "@/lib/generated/prisma/client";
import { toPublicSegment } from "./segment-serializers";

const rules = {
  contactBookUids: [],
  filters: [{ field: "city", op: "eq" as const, value: "Lisbon" }],
  labels: ["VIP"],
  lastInboundWithin: "P30D",
  optedIn: true,
};
const row: Segment = {
  id: "seg_mwtr9dy58a3f0c1d9e2b7a4c6d10",
  customerId: SAMPLE_CUSTOMER_ID,
  name: "Active VIPs in Lisbon",
  rules,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
const segment = toPublicSegment(row);
const params = { segmentUid: row.id };

export const getSegments = { message: "Segments retrieved", response: listExample("segments", [segment]) };
export const postSegments = {
  request: { segment: { name: row.name, rules } },
  message: "Segment created",
  response: segment,
};
export const getSegmentsBySegmentUid = { params, message: "Segment retrieved", response: segment };
export const postSegmentsBySegmentUid = {
  params,
  request: { segment: { rules: { ...rules, lastInboundWithin: "P7D" } } },
  message: "Segment updated",
  response: toPublicSegment({ ...row, rules: { ...rules, lastInboundWithin: "P7D" }, updatedAt: exampleTime(60) }),
};
export const deleteSegmentsBySegmentUid = {
  params,
  message: "Segment deleted",
  response: { segmentUid: row.id, deleted: true as const },
};
export const getSegmentsBySegmentUidCount = { params, message: "Segment counted", response: { count: 1280 } };
