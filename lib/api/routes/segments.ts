// Segments, saved audiences (docs/automation.md "Segments"): list, create, read, update (POST,
// at least one field), delete and the live count. Account-wide: a global token only (a
// number-scoped one answers TOKEN_SCOPE_NOT_ALLOWED); broadcasts name one as audience.segmentUid.
import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/broadcasts/segment-examples";
import {
  SegmentCountPublic,
  SegmentCreateBody,
  SegmentDeletedPublic,
  SegmentListPublic,
  SegmentListQuery,
  SegmentPublic,
  SegmentUid,
  SegmentUpdateBody,
} from "@/lib/domains/broadcasts/segment-schemas";
import { toPublicSegment } from "@/lib/domains/broadcasts/segment-serializers";
import {
  countSegment,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  updateSegment,
} from "@/lib/domains/broadcasts/segments";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Segments",
  tokenScope: "global",
  permission: "broadcasts",
} as const;
const byUid = {
  ...common,
  params: { segmentUid: SegmentUid },
  paramNotFound: { segmentUid: "SEGMENT_NOT_FOUND" },
  errors: ["SEGMENT_NOT_FOUND"],
} as const;

export const segmentRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/segments",
    example: examples.getSegments,
    summary: "List segments",
    description: "The account's segments, newest first.",
    query: SegmentListQuery,
    response: SegmentListPublic,
    handler: async ({ principal, query }) => {
      const { segments, total } = await listSegments(principal, query);
      return ok("Segments retrieved", pageOf("segments", segments.map(toPublicSegment), query, total));
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/segments",
    example: examples.postSegments,
    idempotent: "segment.create",
    summary: "Create a segment",
    description:
      "Body {segment: {name, rules}}; rules {contactBookUids?, filters?, labels?, lastInboundWithin?, optedIn?}. Without books the segment ranges over every number the account knows (books and conversations). Books and labels the account does not have are VALIDATION_FAILED naming the field.",
    body: SegmentCreateBody,
    response: SegmentPublic,
    successStatus: 201,
    handler: async ({ principal, body }) => ({
      status: 201,
      ...ok("Segment created", toPublicSegment(await createSegment(principal, body.segment))),
    }),
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/segments/:segmentUid",
    example: examples.getSegmentsBySegmentUid,
    summary: "Read a segment",
    response: SegmentPublic,
    handler: async ({ principal, params }) =>
      ok("Segment retrieved", toPublicSegment(await getSegment(principal, params.segmentUid))),
  }),
  route({
    ...byUid,
    method: "POST",
    path: "/segments/:segmentUid",
    example: examples.postSegmentsBySegmentUid,
    summary: "Update a segment",
    description:
      "At least one of name, rules (replaced whole). Broadcasts started already keep the rules they started with.",
    body: SegmentUpdateBody,
    response: SegmentPublic,
    handler: async ({ principal, params, body }) =>
      ok("Segment updated", toPublicSegment(await updateSegment(principal, params.segmentUid, body.segment))),
  }),
  route({
    ...byUid,
    method: "DELETE",
    path: "/segments/:segmentUid",
    example: examples.deleteSegmentsBySegmentUid,
    summary: "Delete a segment",
    description: "Broadcasts started with it keep the rules they started with.",
    response: SegmentDeletedPublic,
    handler: async ({ principal, params }) => {
      await deleteSegment(principal, params.segmentUid);
      return ok("Segment deleted", { segmentUid: params.segmentUid, deleted: true as const });
    },
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/segments/:segmentUid/count",
    example: examples.getSegmentsBySegmentUidCount,
    summary: "Count a segment",
    description:
      "The unique phone numbers the rules select now, counted with the query a broadcast start makes its recipients with.",
    response: SegmentCountPublic,
    handler: async ({ principal, params }) =>
      ok("Segment counted", { count: await countSegment(principal, params.segmentUid) }),
  }),
];
