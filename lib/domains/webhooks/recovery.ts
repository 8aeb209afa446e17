// Recovery of failed deliveries (docs/webhook-recovery.md): a customer asks for every
// FAILED delivery of one destination created in a window to be sent again; this queues a
// job (the recovery worker, recovery-worker.ts, does the re-queuing in the background) and
// reads its progress. Tenant-scoped like every webhook read: customer AND sender in the
// WHERE; another account's webhook or job is not found.

import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { notifyStatement } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender, WebhookRecovery } from "@/lib/generated/prisma/client";
import type { RecoverBody, RecoveryPublic } from "./recovery-schemas";
import { tenantScope, webhookNotFound } from "./service";

export const recoveryNotFound = (uid: string) =>
  new ApiError("WEBHOOK_RECOVERY_NOT_FOUND", `Recovery ${uid} not found for this webhook`);

/**
 * Queues a recovery of the destination's FAILED deliveries created in [since, until]
 * (until defaults to now and is never later than now). Refused for an INACTIVE destination,
 * which receives nothing (docs/api/webhooks.md "Deliveries"). The worker is woken by NOTIFY on commit.
 */
export async function startRecovery(
  p: Principal,
  sender: Sender,
  uid: string,
  body: Pick<RecoverBody, "since" | "until">,
  now: Date = new Date(),
): Promise<WebhookRecovery> {
  const scope = tenantScope(p, sender);
  const since = new Date(body.since);
  const asked = body.until === undefined ? now : new Date(body.until);
  const until = asked < now ? asked : now;
  return db.$transaction(async (tx) => {
    // FOR SHARE: a concurrent "set INACTIVE" either commits first (refused here) or waits.
    const rows = await tx.$queryRaw<{ status: string }[]>`
      SELECT status::text AS status FROM "WebhookDestination"
      WHERE id = ${uid} AND "customerId" = ${scope.customerId} AND "senderId" = ${scope.senderId}
      FOR SHARE`;
    const dest = rows[0];
    if (!dest) throw webhookNotFound(uid);
    if (dest.status !== "ACTIVE") {
      throw new ApiError(
        "VALIDATION_FAILED",
        `Webhook ${uid} is INACTIVE; set its status to ACTIVE before recovering deliveries`,
        { webhookUid: uid, status: dest.status },
      );
    }
    const job = await tx.webhookRecovery.create({
      data: { id: newId("rcv_"), ...scope, destinationId: uid, since, until },
    });
    await tx.$executeRaw(notifyStatement("recoveries"));
    return job;
  });
}

/** One recovery job of one destination, for the principal and sender only. */
export async function getRecovery(p: Principal, sender: Sender, uid: string, recoveryUid: string) {
  const scope = tenantScope(p, sender);
  const job = await db.webhookRecovery.findFirst({ where: { id: recoveryUid, destinationId: uid, ...scope } });
  if (job) return job;
  const dest = await db.webhookDestination.findFirst({ where: { id: uid, ...scope }, select: { id: true } });
  throw dest ? recoveryNotFound(recoveryUid) : webhookNotFound(uid);
}

export function toPublicRecovery(row: WebhookRecovery): RecoveryPublic {
  return {
    recoveryUid: row.id,
    uid: row.id,
    webhookUid: row.destinationId,
    status: row.status,
    since: row.since.toISOString(),
    until: row.until.toISOString(),
    total: row.total,
    requeued: row.requeued,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** The destination's newest recovery job, if any (the dashboard shows its progress). */
export async function latestRecovery(p: Principal, sender: Sender, uid: string): Promise<WebhookRecovery | null> {
  const scope = tenantScope(p, sender);
  return db.webhookRecovery.findFirst({
    where: { destinationId: uid, ...scope },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}
