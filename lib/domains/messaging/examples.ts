// The OpenAPI examples of the send routes (docs/openapi.md "Adding a route"): one sample
// message, answered through the receipt and provider serializers the routes answer with.
import type { z } from "zod";
import { exampleTime, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleConversation } from "@/lib/domains/conversations/examples";
import { SAMPLE_MEDIA_ID } from "@/lib/domains/media/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import { sampleTemplate } from "@/lib/domains/templates/examples";
import { componentsFor, slotKey } from "@/lib/domains/templates/fill";
import { templateParameters } from "@/lib/domains/templates/parameters";
import type { Message } from "@/lib/generated/prisma/client";
import type { SendResult } from "./outgoing";
import type { SendReceipt } from "./schemas";
import { receiptResponse, toProviderBody, toReceipt } from "./serializers";

const RECIPIENT = "+18240249823";

/** A message the provider accepted; the sends differ from it only where shown. */
export const sampleMessage: Message = {
  id: "msg_404bee62d116f57a1c0d01f1",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  providerMessageId: "wamid.1nabCai2QW3-Za4_ehRmr33RvNVbDb70",
  recipient: RECIPIENT,
  type: "template",
  templateName: sampleTemplate.name,
  templateLanguage: sampleTemplate.language,
  pricingCategory: "utility",
  sendRoute: "send",
  directSendCategory: null,
  directSendTemplateName: null,
  ttlSeconds: null,
  metaTemplateId: null,
  broadcastId: null,
  mediaId: null,
  status: "accepted",
  queued: false,
  attempts: 1,
  errorCode: null,
  errorMessage: null,
  payload: {},
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};

/**
 * The receipt of a send as its route answers it (v3), typed as the schema reads it: the
 * message's text columns (sendRoute) hold only the schema's values.
 */
export function sampleReceipt(result: SendResult) {
  return {
    message: receiptResponse(result, sampleSender, "v3").message,
    response: toReceipt(result, sampleSender, "v3", true) as z.output<typeof SendReceipt>,
  };
}

// The sample template's parameters filled as a form fills them: the request is one the checks accept.
const components = componentsFor(
  sampleTemplate.components,
  Object.fromEntries(templateParameters(sampleTemplate.components).slots.map((slot) => [slotKey(slot), "Ana"])),
);

const templateSend = { message: sampleMessage, queued: false, template: sampleTemplate };
/** A file kept here, sent by its mediaId (docs/media.md "Sending media"). */
const imageSend = {
  message: {
    ...sampleMessage,
    type: "image",
    templateName: null,
    templateLanguage: null,
    pricingCategory: "service",
    sendRoute: "chat",
    mediaId: SAMPLE_MEDIA_ID,
  },
  queued: false,
  template: null,
};
const providerRequest = {
  to: RECIPIENT,
  type: "template",
  template: { name: sampleTemplate.name, language: { code: sampleTemplate.language }, components },
};
const provider = toProviderBody({ ...templateSend, message: { ...sampleMessage, sendRoute: "messages" } }, RECIPIENT);

export const postSend = {
  request: { to: RECIPIENT, template: { name: sampleTemplate.name, language: sampleTemplate.language, components } },
  ...sampleReceipt(templateSend),
};

export const postChat = {
  request: { to: RECIPIENT, type: "image" as const, media: { id: SAMPLE_MEDIA_ID, caption: "Your return label" } },
  ...sampleReceipt(imageSend),
};

export const postMessages = { request: providerRequest, response: provider };

/** A stock SDK's send of the file its upload (POST /{phoneNumberId}/media) got back. */
export const postByPhoneNumberIdMessages = {
  params: { phoneNumberId: sampleSender.phoneNumberId ?? "" },
  request: { to: RECIPIENT.slice(1), type: "image", image: { id: SAMPLE_MEDIA_ID, caption: "Your return label" } },
  response: toProviderBody(
    { ...imageSend, message: { ...imageSend.message, sendRoute: "messages" } },
    RECIPIENT.slice(1),
  ),
};

const reply = { type: "text", text: { body: "Hello back" } } as const;

/** POST /conversations/{conversationUid}/messages: a text inside the open window. */
export const postConversationsByConversationUidMessages = {
  params: { conversationUid: sampleConversation.id },
  request: { message: reply },
  ...sampleReceipt({
    message: {
      ...sampleMessage,
      recipient: sampleConversation.contactPhoneNumber,
      type: reply.type,
      templateName: null,
      templateLanguage: null,
      pricingCategory: "service",
      sendRoute: "chat",
      createdAt: exampleTime(30),
      updatedAt: exampleTime(30),
    },
    queued: false,
    template: null,
  }),
};
