// The OpenAPI examples of the webhook routes (docs/openapi.md "Adding a route"): one sample
// row per resource, answered through the serializers the routes answer with, and the event
// catalog read from the catalog itself; so an example cannot drift from a real answer.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { WebhookRecovery } from "@/lib/generated/prisma/client";
import { resetHealth } from "./breaker";
import { eventCatalog } from "./catalog";
import { toPublicRecovery } from "./recovery";
import { type DeliveryRow, toPublicDelivery, toPublicWebhookAt, type WebhookRow } from "./serializers";

const webhookRow: WebhookRow = {
  id: "cmwtr9b4q000sug7dwiwif8ls",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  name: "Log",
  endpointUrl: "https://example.com/in",
  events: ["message.status.read"],
  status: "ACTIVE",
  inactiveReason: null,
  timeoutMs: 10000,
  retryEnabled: true,
  retryMaxAttempts: 5,
  verificationHeaderKey: null,
  verificationTokenEnc: null,
  signingSecretEnc: "sample",
  previousSigningSecretEnc: null,
  previousSecretExpiresAt: null,
  secretRotatedAt: null,
  maxDeliveriesPerSecond: null,
  // A closed breaker that never opened.
  ...resetHealth(exampleTime()),
  breakerClosedAt: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  sender: sampleSender,
};
const renamed = { ...webhookRow, name: "Audit", updatedAt: exampleTime(1) };
const rotated = {
  ...renamed,
  previousSigningSecretEnc: "sample-previous",
  secretRotatedAt: exampleTime(2),
  previousSecretExpiresAt: exampleTime(3602),
  updatedAt: exampleTime(2),
};
const webhook = (row: WebhookRow) => toPublicWebhookAt(row, exampleTime(3));

const deliveryRow: DeliveryRow = {
  id: "msg_772cffe941f2459ea978a273fa0813f1",
  eventId: "evt_mwtr9bty18891a0af41ea27fb72e",
  destinationId: webhookRow.id,
  status: "PENDING",
  attempts: 0,
  nextAttemptAt: exampleTime(1),
  lockedUntil: null,
  lastStatus: null,
  lastError: null,
  createdAt: exampleTime(1),
  updatedAt: exampleTime(1),
  event: { id: "evt_mwtr9bty18891a0af41ea27fb72e", type: "webhook.test" },
  log: [],
};
const delivery = toPublicDelivery(deliveryRow);
const params = { webhookUid: webhookRow.id };

const recoveryRow: WebhookRecovery = {
  id: "rcv_mwtsq1r2000aug7d3k4m5n6p",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  destinationId: webhookRow.id,
  status: "QUEUED",
  since: new Date("2026-11-22T00:00:00.000Z"),
  until: exampleTime(),
  total: null,
  requeued: 0,
  cursorCreatedAt: null,
  cursorId: null,
  lockedUntil: null,
  claims: 0,
  error: null,
  createdAt: exampleTime(),
  startedAt: null,
  completedAt: null,
  updatedAt: exampleTime(),
};

/** GET /webhooks/events: the catalog's first group and event (the whole catalog is the answer's). */
export const getWebhooksEvents = {
  message: "Webhook events retrieved",
  response: (() => {
    const [group] = eventCatalog().groups;
    const events = group ? group.events.slice(0, 1) : [];
    return { groups: group ? [{ ...group, events }] : [], eventKeys: events.map((e) => e.key) };
  })(),
};

export const postWebhooks = {
  request: { webhook: { name: "Log", endpointUrl: "https://example.com/in", events: ["message.status.read"] } },
  message: "Webhook created",
  response: webhook(webhookRow),
  extra: { signingSecret: "whsec_c2lnbmluZy1zZWNyZXQtZXhhbXBsZS1vbmx5LTAwMDA=" },
};

export const getWebhooks = { message: "Webhooks retrieved", response: listExample("webhooks", [webhook(webhookRow)]) };

export const getWebhooksByWebhookUid = { params, message: "Webhook retrieved", response: webhook(webhookRow) };

export const postWebhooksByWebhookUid = {
  params,
  request: { webhook: { name: "Audit" } },
  message: "Webhook updated",
  response: webhook(renamed),
};

export const postWebhooksByWebhookUidSecretRotate = {
  params,
  request: { gracePeriodSeconds: 3600 },
  message: "Webhook signing secret rotated",
  response: webhook(rotated),
  extra: { signingSecret: "whsec_c2lnbmluZy1zZWNyZXQtZXhhbXBsZS1vbmx5LTAwMDE=" },
};

export const getWebhooksByWebhookUidDeliveries = {
  params,
  message: "Webhook deliveries retrieved",
  response: { webhookUid: webhookRow.id, ...listExample("deliveries", [delivery]) },
};

export const postWebhooksByWebhookUidDeliveriesByDeliveryIdRedeliver = {
  params: { ...params, deliveryId: deliveryRow.id },
  message: "Delivery queued for redelivery",
  response: toPublicDelivery({ ...deliveryRow, nextAttemptAt: exampleTime(2), updatedAt: exampleTime(2) }),
};

export const postWebhooksByWebhookUidTest = {
  params,
  message: "Test event queued",
  response: { eventId: deliveryRow.eventId, deliveryId: deliveryRow.id, webhookUid: webhookRow.id },
};

export const postWebhooksByWebhookUidRecover = {
  params,
  request: { since: "2026-11-22T00:00:00Z" },
  message: "Webhook recovery queued",
  response: toPublicRecovery(recoveryRow),
};

export const getWebhooksByWebhookUidRecoveriesByRecoveryUid = {
  params: { ...params, recoveryUid: recoveryRow.id },
  message: "Webhook recovery retrieved",
  response: toPublicRecovery({
    ...recoveryRow,
    status: "COMPLETED",
    total: 2,
    requeued: 2,
    startedAt: exampleTime(1),
    completedAt: exampleTime(2),
  }),
};
