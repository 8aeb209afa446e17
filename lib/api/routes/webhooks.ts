// Webhook destinations (docs/api/webhooks.md): the catalog, CRUD without delete, the delivery log,
// redelivery and test events (the OpenAPI document, /api/v3/openapi.json). Sender-scoped: the router
// resolves the sender from senderId or the number-scoped token. There is no DELETE
// (docs/api/webhooks.md "Destinations"): the router answers it 405 with Allow.
import { z } from "zod";
import { pageOf } from "@/lib/core/pagination";
import { eventCatalog } from "@/lib/domains/webhooks/catalog";
import { listDeliveries, redeliver, sendTestEvent } from "@/lib/domains/webhooks/deliveries";
import * as examples from "@/lib/domains/webhooks/examples";
import {
  CatalogPublic,
  DeliveryId,
  DeliveryListPublic,
  DeliveryListQuery,
  DeliveryPublic,
  RotateSecretBody,
  SenderQuery,
  TestEventPublic,
  WebhookCreateBody,
  WebhookListPublic,
  WebhookListQuery,
  WebhookPublic,
  WebhookUid,
  WebhookUpdateBody,
} from "@/lib/domains/webhooks/schemas";
import { toPublicDelivery, toPublicWebhook } from "@/lib/domains/webhooks/serializers";
import {
  createWebhook,
  getWebhook,
  listWebhooks,
  rotateSigningSecret,
  updateWebhook,
} from "@/lib/domains/webhooks/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "webhooks",
  tag: "Webhooks",
  params: { webhookUid: WebhookUid, deliveryId: DeliveryId },
  paramNotFound: { webhookUid: "WEBHOOK_NOT_FOUND" },
} as const;
const scoped = { ...common, sender: "resolve" } as const;

export const webhookRoutes: AnyRoute[] = [
  route({
    ...common,
    sender: "none",
    method: "GET",
    path: "/webhooks/events",
    permission: "webhooks",
    example: examples.getWebhooksEvents,
    summary: "List webhook event types",
    description: "The event catalog: every event key a webhook can subscribe to.",
    response: CatalogPublic,
    handler: async () => ok("Webhook events retrieved", eventCatalog()),
  }),
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks",
    permission: "webhooks",
    example: examples.postWebhooks,
    summary: "Create a webhook",
    description: "Creates a webhook destination; the signing secret is returned once, in this answer.",
    // A replay answers the same body, signingSecret included (docs/idempotency.md).
    idempotent: "webhook.create",
    body: WebhookCreateBody,
    response: WebhookPublic,
    responseExtra: { signingSecret: z.string().describe("The signing secret, shown once: store it now") },
    errors: ["WEBHOOK_ENDPOINT_INVALID", "WEBHOOK_ENDPOINT_REQUIRES_HTTPS"],
    handler: async ({ principal, sender, body }) => {
      const { webhook, signingSecret } = await createWebhook(principal, sender, body.webhook);
      return ok("Webhook created", toPublicWebhook(webhook), { signingSecret });
    },
  }),
  route({
    ...scoped,
    method: "GET",
    path: "/webhooks",
    permission: "webhooks",
    example: examples.getWebhooks,
    summary: "List webhooks",
    description: "The sender's webhook destinations; filter by status and event.",
    query: WebhookListQuery,
    response: WebhookListPublic,
    handler: async ({ principal, sender, query }) => {
      const { webhooks, total } = await listWebhooks(principal, sender, query);
      return ok("Webhooks retrieved", pageOf("webhooks", webhooks.map(toPublicWebhook), query, total));
    },
  }),
  route({
    ...scoped,
    method: "GET",
    path: "/webhooks/:webhookUid",
    permission: "webhooks",
    example: examples.getWebhooksByWebhookUid,
    summary: "Read a webhook",
    description: "A webhook destination, without its secrets.",
    query: SenderQuery,
    response: WebhookPublic,
    handler: async ({ principal, sender, params }) =>
      ok("Webhook retrieved", toPublicWebhook(await getWebhook(principal, sender, params.webhookUid))),
  }),
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid",
    permission: "webhooks",
    example: examples.postWebhooksByWebhookUid,
    summary: "Update a webhook",
    description: "At least one field; an update never rotates the signing secret.",
    body: WebhookUpdateBody,
    response: WebhookPublic,
    errors: ["WEBHOOK_NOT_FOUND", "WEBHOOK_ENDPOINT_INVALID", "WEBHOOK_ENDPOINT_REQUIRES_HTTPS"],
    handler: async ({ principal, sender, params, body }) => {
      const webhook = await updateWebhook(principal, sender, params.webhookUid, body.webhook);
      return ok("Webhook updated", toPublicWebhook(webhook));
    },
  }),
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid/secret/rotate",
    permission: "webhooks",
    example: examples.postWebhooksByWebhookUidSecretRotate,
    summary: "Rotate a webhook's signing secret",
    description:
      "The new secret is returned once, in this answer; the previous one keeps signing for gracePeriodSeconds.",
    body: RotateSecretBody,
    response: WebhookPublic,
    responseExtra: { signingSecret: z.string().describe("The new signing secret, shown once: store it now") },
    errors: ["CONFLICT"],
    handler: async ({ principal, sender, params, body }) => {
      const { webhook, signingSecret } = await rotateSigningSecret(
        principal,
        sender,
        params.webhookUid,
        body.gracePeriodSeconds,
      );
      return ok("Webhook signing secret rotated", toPublicWebhook(webhook), { signingSecret });
    },
  }),
  route({
    ...scoped,
    method: "GET",
    path: "/webhooks/:webhookUid/deliveries",
    permission: "webhooks",
    example: examples.getWebhooksByWebhookUidDeliveries,
    summary: "List a webhook's deliveries",
    description: "The delivery log of a webhook destination, newest first, with every attempt.",
    query: DeliveryListQuery,
    response: DeliveryListPublic,
    handler: async ({ principal, sender, params, query }) => {
      const { webhookUid } = params;
      const { deliveries, total } = await listDeliveries(principal, sender, webhookUid, query);
      const page = pageOf("deliveries", deliveries.map(toPublicDelivery), query, total);
      return ok("Webhook deliveries retrieved", { webhookUid, ...page });
    },
  }),
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid/deliveries/:deliveryId/redeliver",
    permission: "webhooks",
    example: examples.postWebhooksByWebhookUidDeliveriesByDeliveryIdRedeliver,
    summary: "Redeliver a delivery",
    description: "Queues the delivery again now, with the same webhook-id.",
    response: DeliveryPublic,
    handler: async ({ principal, sender, params }) => {
      const delivery = await redeliver(principal, sender, params.webhookUid, params.deliveryId);
      return ok("Delivery queued for redelivery", toPublicDelivery(delivery));
    },
  }),
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid/test",
    permission: "webhooks",
    example: examples.postWebhooksByWebhookUidTest,
    summary: "Send a test event",
    description: "Sends a signed webhook.test event to this destination.",
    response: TestEventPublic,
    handler: async ({ principal, sender, params }) =>
      ok("Test event queued", await sendTestEvent(principal, sender, params.webhookUid)),
  }),
];
