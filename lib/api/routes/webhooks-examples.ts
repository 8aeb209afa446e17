// Examples of the webhooks routes (webhooks.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** One destination as the API answers it; the examples below differ from it only where shown. */
const webhook = {
  webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  uid: "cmwtr9b4q000sug7dwiwif8ls",
  name: "Log",
  endpointUrl: "https://example.com/in",
  phoneNumber: "+18244042470",
  phoneNumberId: "10177673113828900",
  events: ["message.status.read"],
  status: "ACTIVE",
  timeoutMs: 10000,
  retryEnabled: true,
  retryMaxAttempts: 5,
  verificationHeaderKey: null,
  hasVerificationToken: false,
  maxDeliveriesPerSecond: null,
  disabledAt: null,
  disabledReason: null,
  health: {
    breakerState: "CLOSED",
    consecutiveFailures: 0,
    failingSince: null,
    breakerOpenedAt: null,
    nextProbeAt: null,
    recoveringUntil: null,
    thresholds: {
      failuresToOpen: 5,
      probeBackoffMinSeconds: 30,
      probeBackoffMaxSeconds: 3600,
      disableAfterSeconds: 432000,
      recoveryRampSeconds: 60,
    },
  },
  secretRotatedAt: null,
  previousSecretExpiresAt: null,
  createdAt: "2026-11-23T21:05:47.922Z",
  updatedAt: "2026-11-23T21:05:47.922Z",
} as const;

/** GET /webhooks/events */
export const getWebhooksEvents = {
  message: "Webhook events retrieved",
  response: {
    groups: [
      {
        key: "message.status",
        name: "Message status",
        description:
          "Lifecycle updates of messages you sent. Status only moves forward; each event carries the previous status.",
        events: [
          {
            key: "message.status.accepted",
            description: "The provider accepted an outgoing message for delivery.",
            schema: {
              $schema: "https://json-schema.org/draft/2020-12/schema",
              type: "object",
              properties: {
                id: {
                  type: "string",
                  description: "Event id (evt_…)",
                },
                type: {
                  type: "string",
                  const: "message.status.accepted",
                },
                createdAt: {
                  type: "string",
                  description: "ISO 8601 timestamp (UTC)",
                },
                senderId: {
                  type: "string",
                  description: "The sender's phone number",
                },
                phoneNumberId: {
                  type: ["string"],
                },
                data: {
                  type: "object",
                  properties: {
                    messageId: {
                      type: "string",
                    },
                    billingUid: {
                      type: "string",
                    },
                    recipientId: {
                      type: ["string"],
                    },
                    status: {
                      type: "string",
                      enum: ["accepted"],
                    },
                    previousStatus: {
                      type: ["string"],
                    },
                    timestamp: {
                      type: "string",
                      description: "ISO 8601 timestamp (UTC)",
                    },
                    pricing: {
                      anyOf: [
                        {
                          type: "object",
                          properties: {
                            billable: {
                              type: ["boolean"],
                            },
                            billingClass: {
                              type: ["string"],
                            },
                            pricingModel: {
                              type: ["string"],
                            },
                            pricingCategory: {
                              type: ["string"],
                            },
                            templateType: {
                              type: ["string"],
                            },
                            pricingType: {
                              type: ["string"],
                            },
                            rate: {
                              type: "number",
                            },
                          },
                          required: ["billable"],
                          additionalProperties: false,
                        },
                      ],
                    },
                    conversation: {
                      anyOf: [
                        {
                          type: "object",
                          properties: {
                            id: {
                              type: ["string"],
                            },
                            originType: {
                              type: ["string"],
                            },
                          },
                          required: ["id"],
                          additionalProperties: false,
                        },
                      ],
                    },
                    errors: {
                      type: "array",
                      items: {
                        type: "object",
                        properties: {
                          code: {
                            type: ["number"],
                          },
                          title: {
                            type: ["string"],
                          },
                          message: {
                            type: ["string"],
                          },
                        },
                        required: ["code"],
                        additionalProperties: {},
                      },
                    },
                  },
                  required: ["messageId"],
                  additionalProperties: false,
                },
              },
              required: ["id"],
              additionalProperties: false,
            },
            example: {
              id: "evt_01jexample000000000000000",
              type: "message.status.accepted",
              createdAt: "2026-11-23T10:15:00.000Z",
              senderId: "+15550100001",
              phoneNumberId: "104857600000001",
              data: {
                messageId: "wamid.example.1",
                billingUid: "cm3example0001",
                recipientId: "15550100002",
                status: "accepted",
                previousStatus: null,
                timestamp: "2026-11-23T10:15:00.000Z",
                pricing: null,
                conversation: null,
                errors: [],
              },
            },
          },
        ],
      },
    ],
    eventKeys: ["message.status.accepted"],
  },
} as const;

/** POST /webhooks */
export const postWebhooks = {
  request: {
    webhook: {
      name: "Log",
      endpointUrl: "https://example.com/in",
      events: ["message.status.read"],
    },
  },
  message: "Webhook created",
  response: {
    ...webhook,
  },
  extra: {
    signingSecret: "whsec_c2lnbmluZy1zZWNyZXQtZXhhbXBsZS1vbmx5LTAwMDA=",
  },
} as const;

/** GET /webhooks */
export const getWebhooks = {
  message: "Webhooks retrieved",
  response: {
    webhooks: [
      {
        ...webhook,
      },
    ],
    items: [
      {
        ...webhook,
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      total: 1,
      totalPages: 1,
      count: 1,
      hasMore: false,
    },
  },
} as const;

/** GET /webhooks/:webhookUid */
export const getWebhooksByWebhookUid = {
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
  message: "Webhook retrieved",
  response: {
    ...webhook,
  },
} as const;

/** POST /webhooks/:webhookUid */
export const postWebhooksByWebhookUid = {
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
  request: {
    webhook: {
      name: "Audit",
    },
  },
  message: "Webhook updated",
  response: {
    ...webhook,
    name: "Audit",
    updatedAt: "2026-11-23T21:05:48.530Z",
  },
} as const;

/** POST /webhooks/:webhookUid/secret/rotate */
export const postWebhooksByWebhookUidSecretRotate = {
  request: { gracePeriodSeconds: 3600 },
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
  message: "Webhook signing secret rotated",
  response: {
    ...webhook,
    name: "Audit",
    secretRotatedAt: "2026-11-23T21:05:48.652Z",
    previousSecretExpiresAt: "2026-11-23T22:05:48.652Z",
    updatedAt: "2026-11-23T21:05:48.777Z",
  },
  extra: {
    signingSecret: "whsec_c2lnbmluZy1zZWNyZXQtZXhhbXBsZS1vbmx5LTAwMDE=",
  },
} as const;

/** GET /webhooks/:webhookUid/deliveries */
export const getWebhooksByWebhookUidDeliveries = {
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
  message: "Webhook deliveries retrieved",
  response: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
    deliveries: [
      {
        deliveryId: "msg_772cffe941f2459ea978a273fa0813f1",
        eventId: "evt_mwtr9bty18891a0af41ea27fb72e",
        eventType: "webhook.test",
        status: "PENDING",
        attempts: 0,
        nextAttemptAt: "2026-11-23T21:05:48.825Z",
        lastStatusCode: null,
        lastError: null,
        createdAt: "2026-11-23T21:05:48.825Z",
        updatedAt: "2026-11-23T21:05:48.825Z",
        attemptLog: [],
      },
    ],
    items: [
      {
        deliveryId: "msg_772cffe941f2459ea978a273fa0813f1",
        eventId: "evt_mwtr9bty18891a0af41ea27fb72e",
        eventType: "webhook.test",
        status: "PENDING",
        attempts: 0,
        nextAttemptAt: "2026-11-23T21:05:48.825Z",
        lastStatusCode: null,
        lastError: null,
        createdAt: "2026-11-23T21:05:48.825Z",
        updatedAt: "2026-11-23T21:05:48.825Z",
        attemptLog: [],
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      total: 1,
      totalPages: 1,
      count: 1,
      hasMore: false,
    },
  },
} as const;

/** POST /webhooks/:webhookUid/deliveries/:deliveryId/redeliver */
export const postWebhooksByWebhookUidDeliveriesByDeliveryIdRedeliver = {
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
    deliveryId: "msg_772cffe941f2459ea978a273fa0813f1",
  },
  message: "Delivery queued for redelivery",
  response: {
    deliveryId: "msg_772cffe941f2459ea978a273fa0813f1",
    eventId: "evt_mwtr9bty18891a0af41ea27fb72e",
    eventType: "webhook.test",
    status: "PENDING",
    attempts: 0,
    nextAttemptAt: "2026-11-23T21:05:49.148Z",
    lastStatusCode: null,
    lastError: null,
    createdAt: "2026-11-23T21:05:48.825Z",
    updatedAt: "2026-11-23T21:05:49.149Z",
    attemptLog: [],
  },
} as const;

/** POST /webhooks/:webhookUid/test */
export const postWebhooksByWebhookUidTest = {
  params: {
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
  message: "Test event queued",
  response: {
    eventId: "evt_mwtr9bty18891a0af41ea27fb72e",
    deliveryId: "msg_772cffe941f2459ea978a273fa0813f1",
    webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  },
} as const;
