// The events about message templates (docs/event-pipeline.md "Events"): the provider's review
// and rating changes, emitted by the callback ingest to every sender of the customer on that
// business account.
import { z } from "zod";
import { defineEvent } from "@/lib/domains/events/define";

const TemplateData = z.object({
  templateUid: z.string(),
  providerTemplateId: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  quality: z.string().nullable(),
  update: z.unknown().describe("The provider's update object, as received"),
});

const example = (update: unknown) => ({
  templateUid: "cm3template0001",
  providerTemplateId: "1234567890",
  name: "order_update",
  language: "en_US",
  status: "APPROVED",
  category: "UTILITY",
  quality: "GREEN",
  update,
});

export const TEMPLATE_EVENTS = {
  status: defineEvent({
    type: "template.status_update",
    description: "A message template was approved, rejected, paused or disabled.",
    schema: TemplateData,
    example: example({ event: "APPROVED", message_template_id: 1234567890 }),
  }),
  category: defineEvent({
    type: "template.category_update",
    description: "The provider changed a message template's category.",
    schema: TemplateData,
    example: example({ new_category: "MARKETING", previous_category: "UTILITY" }),
  }),
  quality: defineEvent({
    type: "template.quality_update",
    description: "A message template's quality rating changed.",
    schema: TemplateData,
    example: example({ new_quality_score: "GREEN", previous_quality_score: "YELLOW" }),
  }),
};
