// Operational events (docs/event-pipeline.md "Endpoint health"): the customer hears about a
// destination in trouble on their OTHER active destinations subscribed to the key. Each
// target gets its own event (emitted for that target alone, under its sender), idempotent
// per target through the dedupeKey. Deliveries of operational events never raise
// operational events themselves, so two failing endpoints cannot notify each other forever.
import { db, type Tx } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";

export const ENDPOINT_DISABLED = "webhook.endpoint.disabled";
export const DELIVERY_EXHAUSTED = "webhook.delivery.exhausted";

async function emitToOthers(
  tx: Tx,
  source: { id: string; customerId: string },
  type: string,
  dedupeKey: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<number> {
  const targets = await tx.webhookDestination.findMany({
    where: { customerId: source.customerId, id: { not: source.id }, status: "ACTIVE", events: { has: type } },
    select: {
      id: true,
      sender: { select: { id: true, customerId: true, phoneNumber: true, phoneNumberId: true } },
    },
  });
  if (targets.length === 0) return 0;
  return emitEvents(
    tx,
    targets.map((t) => ({
      sender: t.sender,
      type,
      dedupeKey: `${dedupeKey}:${t.id}`,
      data,
      createdAt: now,
      destinationId: t.id,
    })),
  );
}

/** webhook.endpoint.disabled for a destination just disabled by its failure streak (in the disabling transaction). */
export async function emitEndpointDisabled(tx: Tx, destinationId: string, now: Date): Promise<number> {
  const d = await tx.webhookDestination.findUnique({
    where: { id: destinationId },
    include: { sender: { select: { phoneNumber: true } } },
  });
  if (!d?.disabledAt) return 0;
  return emitToOthers(
    tx,
    d,
    ENDPOINT_DISABLED,
    `${ENDPOINT_DISABLED}:${d.id}:${d.disabledAt.toISOString()}`,
    {
      webhookUid: d.id,
      name: d.name,
      endpointUrl: d.endpointUrl,
      phoneNumber: d.sender.phoneNumber,
      status: "INACTIVE",
      disabledAt: d.disabledAt.toISOString(),
      reason: d.inactiveReason ?? "",
      failingSince: d.failingSince?.toISOString() ?? null,
      consecutiveFailures: d.consecutiveFailures,
    },
    now,
  );
}

type Exhausted = {
  deliveryId: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  eventId: string;
  eventType: string;
  destinationId: string;
  customerId: string;
  name: string;
  endpointUrl: string;
  phoneNumber: string;
};

/** webhook.delivery.exhausted for each of these deliveries that ended FAILED (not for operational events). */
export async function emitDeliveryExhausted(deliveryIds: string[], now: Date): Promise<number> {
  const rows = await db.$queryRawUnsafe<Exhausted[]>(
    `SELECT w.id AS "deliveryId", w.attempts, w."lastStatus", w."lastError", e.id AS "eventId", e.type AS "eventType",
            d.id AS "destinationId", d."customerId", d.name, d."endpointUrl", s."phoneNumber"
     FROM "WebhookDelivery" AS w
     JOIN "WebhookEvent" AS e ON e.id = w."eventId"
     JOIN "WebhookDestination" AS d ON d.id = w."destinationId"
     JOIN "Sender" AS s ON s.id = d."senderId"
     WHERE w.id = ANY($1::text[]) AND w.status = 'FAILED' AND e.type NOT LIKE 'webhook.%'`,
    deliveryIds,
  );
  let emitted = 0;
  for (const r of rows) {
    emitted += await emitToOthers(
      db,
      { id: r.destinationId, customerId: r.customerId },
      DELIVERY_EXHAUSTED,
      `${DELIVERY_EXHAUSTED}:${r.deliveryId}:${r.attempts}`,
      {
        webhookUid: r.destinationId,
        name: r.name,
        endpointUrl: r.endpointUrl,
        phoneNumber: r.phoneNumber,
        deliveryId: r.deliveryId,
        eventId: r.eventId,
        eventType: r.eventType,
        attempts: r.attempts,
        lastStatusCode: r.lastStatus,
        lastError: r.lastError,
        failedAt: now.toISOString(),
      },
      now,
    );
  }
  return emitted;
}
