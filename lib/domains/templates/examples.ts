// The OpenAPI examples of the template routes (docs/openapi.md "Adding a route"): one sample
// template through the serializer the routes answer with (v3, the newest shape).

import type { z } from "zod";
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { Template } from "@/lib/generated/prisma/client";
import type { PublicTemplate } from "./schemas";
import { toPublicTemplate } from "./serializers";

/** An approved template; the send examples (messaging) send it too. */
export const sampleTemplate: Template = {
  id: "cmwtr9huf001rug7d5jfih57c",
  customerId: SAMPLE_CUSTOMER_ID,
  wabaId: sampleSender.wabaId,
  providerTemplateId: "100932607170622",
  name: "order_update",
  language: "en",
  category: "UTILITY",
  correctCategory: null,
  status: "APPROVED",
  quality: null,
  source: "MANUAL",
  components: [{ type: "BODY", text: "Hello {{1}}" }],
  rejectionReason: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
/** As the v3 routes answer it, typed as the schema reads it: components hold only what the schema allows. */
const publicTemplate = (row: Template) => toPublicTemplate(row, "v3") as z.output<typeof PublicTemplate>;
const template = publicTemplate(sampleTemplate);

const created = {
  name: "shipping_notice",
  language: "en_US",
  category: "UTILITY",
  components: [{ type: "BODY", text: "Shipped {{1}}" }],
} as const;

export const getTemplates = { message: "Templates retrieved", response: listExample("templates", [template]) };

export const getTemplatesByIdentifier = {
  params: { identifier: sampleTemplate.id },
  message: "Template retrieved",
  response: template,
};

export const postTemplates = {
  request: { template: created },
  message: "Template created and submitted for review",
  response: publicTemplate({
    ...sampleTemplate,
    ...created,
    components: created.components.map((c) => ({ ...c })),
    id: "cmwtr9hz4001tug7dque0sg6i",
    providerTemplateId: "733427732204974",
    status: "PENDING",
    createdAt: exampleTime(60),
    updatedAt: exampleTime(60),
  }),
};

export const postTemplatesSync = { message: "Templates synced", response: { synced: 1 } };
