// One delivery as the dashboard's delivery log opens it: the event payload as sent, the
// request headers every attempt carries (secrets masked: the signature and a verification
// token are never shown) and each attempt's status code, response excerpt, duration and
// time (docs/event-pipeline.md "Delivery log"). Scoped like every webhook read: the
// principal's customer and the sender in force.

import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/generated/prisma/client";
import type { DeliveryPublic } from "./schemas";
import { toPublicDelivery } from "./serializers";
import { tenantScope } from "./service";
import { USER_AGENT } from "./worker";

export type RequestHeader = { name: string; value: string; note?: string };

export type DeliveryDetail = DeliveryPublic & {
  /** The JSON body POSTed on every attempt (the same bytes each time). */
  payload: unknown;
  /** The headers of each attempt, in the order the worker sets them. */
  requestHeaders: RequestHeader[];
};

/** What lib/domains/webhooks/worker.ts buildHeaders sends, with its secret-derived values masked. */
export function requestHeadersOf(
  deliveryId: string,
  dest: { verificationHeaderKey: string | null; hasVerificationToken: boolean; rotating: boolean },
): RequestHeader[] {
  const headers: RequestHeader[] = [
    { name: "content-type", value: "application/json" },
    { name: "user-agent", value: USER_AGENT },
    { name: "webhook-id", value: deliveryId, note: "the same on every attempt and redelivery" },
    { name: "webhook-timestamp", value: "Unix seconds of the attempt", note: "see each attempt's time" },
    {
      name: "webhook-signature",
      value: dest.rotating ? "v1,… v1,…" : "v1,…",
      note: dest.rotating
        ? "signed with the current and the previous secret during the rotation's grace; not stored"
        : "HMAC-SHA256 of id.timestamp.payload with the signing secret; not stored",
    },
  ];
  if (dest.verificationHeaderKey && dest.hasVerificationToken) {
    headers.push({
      name: dest.verificationHeaderKey.toLowerCase(),
      value: "••••••",
      note: "verification token, hidden",
    });
  }
  return headers;
}

export async function getDeliveryDetail(
  p: Principal,
  sender: Sender,
  uid: string,
  deliveryId: string,
): Promise<DeliveryDetail> {
  const scope = tenantScope(p, sender);
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, destinationId: uid, destination: { is: scope } },
    include: {
      event: { select: { id: true, type: true, payload: true } },
      log: { orderBy: [{ startedAt: "asc" }, { attempt: "asc" }] },
      destination: {
        select: {
          verificationHeaderKey: true,
          verificationTokenEnc: true,
          previousSigningSecretEnc: true,
          previousSecretExpiresAt: true,
        },
      },
    },
  });
  if (!row) throw new ApiError("NOT_FOUND", `Delivery ${deliveryId} not found for webhook ${uid}`);
  const d = row.destination;
  return {
    ...toPublicDelivery(row),
    payload: row.event.payload,
    requestHeaders: requestHeadersOf(row.id, {
      verificationHeaderKey: d.verificationHeaderKey,
      hasVerificationToken: Boolean(d.verificationTokenEnc),
      rotating: Boolean(
        d.previousSigningSecretEnc && d.previousSecretExpiresAt && d.previousSecretExpiresAt > new Date(),
      ),
    }),
  };
}
