// Webhook destinations: create, list, get, update. Every read and write carries the
// customer AND the resolved sender in its WHERE (docs/api/webhooks.md "Which sender": a uid outside both is
// WEBHOOK_NOT_FOUND). The signing secret is generated on create, returned once, stored
// only encrypted, and never read back through this module; update never rotates it,
// rotateSigningSecret does (the previous one keeps signing for a grace period).
import { randomBytes } from "node:crypto";
import { encryptSecret } from "@/lib/core/crypto/secret-box";
import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";
import { resetHealth } from "./breaker";
import type { WebhookCreateInput, WebhookListQuery, WebhookPatch } from "./schemas";
import type { WebhookRow } from "./serializers";
import { validateEndpointUrl } from "./url-guard";

export const WITH_SENDER = { sender: { select: { phoneNumber: true, phoneNumberId: true } } } as const;

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export const webhookNotFound = (uid: string) =>
  new ApiError("WEBHOOK_NOT_FOUND", `Webhook ${uid} not found for this account and sender`);

/** The tenant part of every WHERE; refuses a sender outside the principal's reach. */
export function tenantScope(p: Principal, sender: Sender): { customerId: string; senderId: string } {
  if (sender.customerId !== p.customerId) throw new ApiError("SENDER_NOT_FOUND", "Sender not found");
  if (p.scopedSenderId && p.scopedSenderId !== sender.id) {
    throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "This token is bound to another sender");
  }
  return { customerId: p.customerId, senderId: sender.id };
}

export async function createWebhook(
  p: Principal,
  sender: Sender,
  input: WebhookCreateInput,
): Promise<{ webhook: WebhookRow; signingSecret: string }> {
  const scope = tenantScope(p, sender);
  const endpointUrl = await validateEndpointUrl(input.endpointUrl);
  const signingSecret = generateSigningSecret();
  const webhook = await db.$transaction(async (tx) => {
    const created = await tx.webhookDestination.create({
      data: {
        ...scope,
        name: input.name,
        endpointUrl,
        events: input.events,
        status: input.status,
        timeoutMs: input.timeoutMs,
        retryEnabled: input.retryEnabled,
        retryMaxAttempts: input.retryMaxAttempts,
        verificationHeaderKey: input.verificationHeaderKey ?? null,
        verificationTokenEnc: input.verificationToken ? encryptSecret(input.verificationToken) : null,
        signingSecretEnc: encryptSecret(signingSecret),
        maxDeliveriesPerSecond: input.maxDeliveriesPerSecond ?? null,
      },
      include: WITH_SENDER,
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "webhook.created",
      target: { type: "webhook", uid: created.id },
      details: {
        name: created.name,
        endpointUrl: created.endpointUrl,
        senderId: created.senderId,
        events: [...created.events],
      },
    });
    return created;
  });
  return { webhook, signingSecret };
}

export async function listWebhooks(
  p: Principal,
  sender: Sender,
  query: Pick<WebhookListQuery, "status" | "event" | "page" | "limit">,
): Promise<{ webhooks: WebhookRow[]; total: number }> {
  const where: Prisma.WebhookDestinationWhereInput = {
    ...tenantScope(p, sender),
    ...(query.status ? { status: query.status } : {}),
    ...(query.event ? { events: { has: query.event } } : {}),
  };
  const [webhooks, total] = await Promise.all([
    db.webhookDestination.findMany({
      where,
      include: WITH_SENDER,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.webhookDestination.count({ where }),
  ]);
  return { webhooks, total };
}

export async function getWebhook(p: Principal, sender: Sender, uid: string, tx: Tx = db): Promise<WebhookRow> {
  const row = await tx.webhookDestination.findFirst({
    where: { id: uid, ...tenantScope(p, sender) },
    include: WITH_SENDER,
  });
  if (!row) throw webhookNotFound(uid);
  return row;
}

function toUpdateData(
  patch: WebhookPatch,
  endpointUrl: string | undefined,
): Prisma.WebhookDestinationUpdateManyMutationInput {
  const data: Prisma.WebhookDestinationUpdateManyMutationInput = {};
  if (patch.name !== undefined) data.name = patch.name;
  if (endpointUrl !== undefined) data.endpointUrl = endpointUrl;
  if (patch.events !== undefined) data.events = { set: patch.events };
  if (patch.status !== undefined) {
    data.status = patch.status;
    data.inactiveReason = patch.status === "INACTIVE" ? "Set INACTIVE by the customer" : null;
    data.disabledAt = null;
  }
  if (patch.timeoutMs !== undefined) data.timeoutMs = patch.timeoutMs;
  if (patch.retryEnabled !== undefined) data.retryEnabled = patch.retryEnabled;
  if (patch.retryMaxAttempts !== undefined) data.retryMaxAttempts = patch.retryMaxAttempts;
  if (patch.verificationHeaderKey !== undefined) data.verificationHeaderKey = patch.verificationHeaderKey;
  if (patch.verificationToken !== undefined) data.verificationTokenEnc = encryptSecret(patch.verificationToken);
  if (patch.clearVerificationToken === true) data.verificationTokenEnc = null;
  if (patch.maxDeliveriesPerSecond !== undefined) data.maxDeliveriesPerSecond = patch.maxDeliveriesPerSecond;
  // signingSecretEnc is deliberately absent: update never rotates the secret (docs/api/webhooks.md "Destinations").
  return data;
}

/**
 * Applies the patch with the tenant in the WHERE. Setting INACTIVE cancels the
 * destination's PENDING deliveries in the same transaction (docs/api/webhooks.md "Destinations").
 */
export async function updateWebhook(
  p: Principal,
  sender: Sender,
  uid: string,
  patch: WebhookPatch,
): Promise<WebhookRow> {
  const scope = tenantScope(p, sender);
  const endpointUrl = patch.endpointUrl !== undefined ? await validateEndpointUrl(patch.endpointUrl) : undefined;
  const data = toUpdateData(patch, endpointUrl);
  return db.$transaction(async (tx) => {
    if (patch.status === "ACTIVE") {
      // Re-enabling an INACTIVE destination resets its circuit breaker; deliveries ramp up
      // again (docs/event-pipeline.md "Endpoint health"). An ACTIVE one keeps its breaker.
      await tx.webhookDestination.updateMany({
        where: { id: uid, ...scope, status: "INACTIVE" },
        data: resetHealth(new Date()),
      });
    }
    const { count } = await tx.webhookDestination.updateMany({ where: { id: uid, ...scope }, data });
    if (count === 0) throw webhookNotFound(uid);
    if (patch.status === "INACTIVE") {
      await tx.webhookDelivery.updateMany({
        where: { destinationId: uid, status: "PENDING", destination: { is: scope } },
        data: { status: "CANCELLED", lastError: "Cancelled: the destination was set INACTIVE" },
      });
    }
    const row = await getWebhook(p, sender, uid, tx);
    await recordAudit(tx, {
      ...auditContext(p),
      action: patch.status === "INACTIVE" ? "webhook.disabled" : "webhook.updated",
      target: { type: "webhook", uid },
      // The names of the fields sent, never their values (a verification token is one).
      details: { fields: Object.keys(patch).sort() },
    });
    if (row.verificationTokenEnc && !row.verificationHeaderKey) {
      // Rolls the update back: a token nobody would ever send is a configuration mistake.
      throw new ApiError(
        "VALIDATION_FAILED",
        "webhook.verificationHeaderKey: a verification token needs a header name; set one or send clearVerificationToken: true",
        {
          fields: [
            { path: "body.webhook.verificationHeaderKey", message: "required while a verification token is stored" },
          ],
        },
      );
    }
    return row;
  });
}

/**
 * Rotates the signing secret: the new one is returned once; the current one becomes the
 * previous secret (stored encrypted) and keeps signing beside the new one until the grace
 * ends (docs/event-pipeline.md "Secret rotation"). A grace of 0 drops it at once.
 * Rotating again during a grace replaces the previous secret with the current one.
 */
export async function rotateSigningSecret(
  p: Principal,
  sender: Sender,
  uid: string,
  gracePeriodSeconds: number,
  now: Date = new Date(),
): Promise<{ webhook: WebhookRow; signingSecret: string }> {
  const scope = tenantScope(p, sender);
  const signingSecret = generateSigningSecret();
  return db.$transaction(async (tx) => {
    const current = await getWebhook(p, sender, uid, tx);
    const keep = gracePeriodSeconds > 0;
    const { count } = await tx.webhookDestination.updateMany({
      where: { id: uid, ...scope, signingSecretEnc: current.signingSecretEnc },
      data: {
        signingSecretEnc: encryptSecret(signingSecret),
        previousSigningSecretEnc: keep ? current.signingSecretEnc : null,
        previousSecretExpiresAt: keep ? new Date(now.getTime() + gracePeriodSeconds * 1000) : null,
        secretRotatedAt: now,
      },
    });
    // Another rotation won the race: answer as if this one came second (it did not happen).
    if (count === 0) throw new ApiError("CONFLICT", "The signing secret was rotated concurrently; try again");
    await recordAudit(tx, {
      ...auditContext(p),
      action: "webhook.secret_rotated",
      target: { type: "webhook", uid },
      details: { gracePeriodSeconds },
    });
    return { webhook: await getWebhook(p, sender, uid, tx), signingSecret };
  });
}
