// The delivery log of one destination, manual redelivery and the signed test event
// (docs/api/webhooks.md "Destinations", as Stripe and Svix have them). The worker
// (lib/domains/webhooks/worker.ts) sends every PENDING delivery whose nextAttemptAt has come;
// a delivery's id is its `webhook-id`, so a redelivery keeps the same id.

import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { emitEvent } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";
import { TestEvent } from "./event-types";
import type { DeliveryListQuery } from "./schemas";
import type { DeliveryRow } from "./serializers";
import { tenantScope, webhookNotFound } from "./service";

const DELIVERY_INCLUDE = {
  event: { select: { id: true, type: true } },
  log: { orderBy: [{ startedAt: "asc" }, { attempt: "asc" }] },
} as const satisfies Prisma.WebhookDeliveryInclude;

async function requireDestination(p: Principal, sender: Sender, uid: string) {
  const scope = tenantScope(p, sender);
  const dest = await db.webhookDestination.findFirst({
    where: { id: uid, ...scope },
    select: { id: true, status: true },
  });
  if (!dest) throw webhookNotFound(uid);
  return { dest, scope };
}

const inactive = (uid: string, what: string) =>
  new ApiError("VALIDATION_FAILED", `Webhook ${uid} is INACTIVE; set its status to ACTIVE before ${what}`, {
    webhookUid: uid,
    status: "INACTIVE",
  });

/** Deliveries of one destination, newest first, each with its attempt log. */
export async function listDeliveries(
  p: Principal,
  sender: Sender,
  uid: string,
  query: Pick<DeliveryListQuery, "page" | "limit" | "status">,
): Promise<{ deliveries: DeliveryRow[]; total: number }> {
  const { scope } = await requireDestination(p, sender, uid);
  const where: Prisma.WebhookDeliveryWhereInput = {
    destinationId: uid,
    destination: { is: scope },
    ...(query.status ? { status: query.status } : {}),
  };
  const [deliveries, total] = await Promise.all([
    db.webhookDelivery.findMany({
      where,
      include: DELIVERY_INCLUDE,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.webhookDelivery.count({ where }),
  ]);
  return { deliveries, total };
}

/**
 * Puts one delivery back in the queue now (same id, so the same `webhook-id`). The
 * attempt count is kept: the worker makes at least one more attempt. Refused for an
 * INACTIVE destination, which receives nothing (docs/api/webhooks.md "Deliveries").
 */
export async function redeliver(p: Principal, sender: Sender, uid: string, deliveryId: string): Promise<DeliveryRow> {
  const scope = tenantScope(p, sender);
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, destinationId: uid, destination: { is: { ...scope, status: "ACTIVE" } } },
    data: { status: "PENDING", nextAttemptAt: new Date() },
  });
  if (count === 0) {
    const { dest } = await requireDestination(p, sender, uid);
    if (dest.status === "INACTIVE") throw inactive(uid, "redelivering");
    throw new ApiError("NOT_FOUND", `Delivery ${deliveryId} not found for webhook ${uid}`);
  }
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, destinationId: uid, destination: { is: scope } },
    include: DELIVERY_INCLUDE,
  });
  if (!row) throw new ApiError("NOT_FOUND", `Delivery ${deliveryId} not found for webhook ${uid}`);
  deliveriesQueued(); // wakes an in-process worker now rather than at its next poll
  return row;
}

export type TestEventResult = { eventId: string; deliveryId: string; webhookUid: string };

/**
 * Queues a `webhook.test` event for this destination only (whatever it subscribes to),
 * through the same emit function as every real event (lib/domains/events/emit.ts).
 */
export async function sendTestEvent(p: Principal, sender: Sender, uid: string): Promise<TestEventResult> {
  const scope = tenantScope(p, sender);
  const emitted = await db.$transaction(async (tx) => {
    // FOR UPDATE: a concurrent "set INACTIVE" (which cancels PENDING deliveries) either
    // commits first and we refuse, or waits for us and then cancels this delivery too.
    const rows = await tx.$queryRaw<{ status: string }[]>`
      SELECT status::text AS status FROM "WebhookDestination"
      WHERE id = ${uid} AND "customerId" = ${scope.customerId} AND "senderId" = ${scope.senderId}
      FOR UPDATE`;
    const dest = rows[0];
    if (!dest) throw webhookNotFound(uid);
    if (dest.status !== "ACTIVE") throw inactive(uid, "sending a test event");
    return emitEvent(
      tx,
      TestEvent.of({
        sender,
        dedupeKey: null,
        destinationId: uid,
        data: {
          message: "This is a test event from Switchboard. If you can read it, your endpoint works.",
          webhookUid: uid,
        },
      }),
    );
  });
  const deliveryId = emitted?.deliveryIds[0];
  if (!emitted || deliveryId === undefined) throw new Error("the test event was not queued for its destination");
  deliveriesQueued();
  return { eventId: emitted.eventId, deliveryId, webhookUid: uid };
}
