"use server";
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { SegmentCreateBody, SegmentPatch } from "@/lib/domains/broadcasts/segment-schemas";
import { createSegment, updateSegment } from "@/lib/domains/broadcasts/segments";

// The segment form keys its errors by path below `segment` ("rules.filters.0.value").
export const createSegmentAction = defineAction({
  permission: "broadcasts",
  schema: SegmentCreateBody,
  run: async ({ principal, input }) => ({ uid: (await createSegment(principal, input.segment)).id }),
  revalidate: "/broadcasts/segments",
  fieldsBelow: "segment",
});

export const updateSegmentAction = defineAction({
  permission: "broadcasts",
  schema: z.object({ uid: RecordId, segment: SegmentPatch }),
  run: async ({ principal, input }) => {
    await updateSegment(principal, input.uid, input.segment);
  },
  revalidate: "/broadcasts/segments",
  fieldsBelow: "segment",
});
