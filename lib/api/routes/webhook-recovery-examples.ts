// Examples of the recovery routes in the OpenAPI document (docs/openapi.md), typed against
// the routes' zod schemas by route({ example }).

const recovery = {
  recoveryUid: "cmwtsq1r2000aug7d3k4m5n6p",
  uid: "cmwtsq1r2000aug7d3k4m5n6p",
  webhookUid: "cmwtr9b4q000sug7dwiwif8ls",
  since: "2026-11-22T00:00:00.000Z",
  until: "2026-11-23T21:30:00.000Z",
  error: null,
  createdAt: "2026-11-23T21:30:00.000Z",
} as const;

/** POST /webhooks/:webhookUid/recover */
export const postWebhooksByWebhookUidRecover = {
  params: { webhookUid: "cmwtr9b4q000sug7dwiwif8ls" },
  request: { since: "2026-11-22T00:00:00Z" },
  message: "Webhook recovery queued",
  response: { ...recovery, status: "QUEUED", total: null, requeued: 0, startedAt: null, completedAt: null },
} as const;

/** GET /webhooks/:webhookUid/recoveries/:recoveryUid */
export const getWebhooksByWebhookUidRecoveriesByRecoveryUid = {
  params: { webhookUid: "cmwtr9b4q000sug7dwiwif8ls", recoveryUid: "cmwtsq1r2000aug7d3k4m5n6p" },
  message: "Webhook recovery retrieved",
  response: {
    ...recovery,
    status: "COMPLETED",
    total: 2,
    requeued: 2,
    startedAt: "2026-11-23T21:30:00.210Z",
    completedAt: "2026-11-23T21:30:00.480Z",
  },
} as const;
