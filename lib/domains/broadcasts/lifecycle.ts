// The life of a broadcast (docs/broadcasts.md "States"): every change of its state is made
// here, whoever asks for it: the API and the dashboard (service.ts, retry-failed.ts), the
// operator's top-up (top-up.ts) and the worker (the dispatcher's housekeeping and batches).
//   start:    DRAFT/SCHEDULED -> SCHEDULED (a later time) or STARTING (now); STARTING ->
//             SENDING once its recipients are made, in chunks (materialise.ts);
//   pause:    SENDING -> PAUSED, by a person or by the service (pauseReason: the messaging
//             limit with resumesAt, the balance, the template, the sender);
//   resume:   PAUSED -> SENDING, by a person, at resumesAt (resumeDue) or after a top-up;
//   complete: SENDING -> COMPLETED once no recipient is queued or sending; COMPLETED ->
//             SENDING again when failed recipients are retried (reopenLocked) or a stale send
//             is queued again (stale-sends.ts, inside its one statement);
//   cancel:   anything but COMPLETED -> CANCELLED, its queued recipients skipped in chunks
//             afterwards (cancel-sweep.ts).
// Each change locks the broadcast's row (SELECT ... FOR UPDATE; a request's lock is
// state-lock.ts's, waited for 2 seconds at most) and happens in one short transaction: a
// refused change leaves the broadcast as it was, and a person's change and the worker's take
// the lock in turn.
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Broadcast, Prisma, Sender } from "@/lib/generated/prisma/client";
import { cancelSweep, skipCancelled } from "./cancel-sweep";
import { broadcastEvent } from "./events";
import { extrasOf } from "./extras";
import { materialise, startChunks } from "./materialise";
import type { Audience, EstimatePublic } from "./schemas";
import { lockBroadcast, type Scope, STATE_CHANGE, stateConflict } from "./state-lock";

/** How long a pass makes a starting broadcast's recipients before it turns to sending (the rest: next passes). */
export const STARTING_BUDGET_MS = 1_000;

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** What the worker's housekeeping passes: its clock, the start's lease and the customers it works for. */
type Housekeeping = { now: () => Date; leaseMs: number; customerIds: string[] | null };

/**
 * Starts now or schedules (`plan.scheduleFor`, a future time), the start's checks done by the
 * caller (service.ts startBroadcast: the audience counted and the balance checked without a
 * lock). The change itself is one short transaction (the broadcast unchanged since it was
 * counted, else 409); a start now makes the broadcast STARTING and its recipients are made
 * in bounded chunks afterwards (materialise.ts), here for a moment and then by the
 * dispatcher's housekeeping.
 */
export async function start(
  p: Principal,
  scope: Scope,
  current: Pick<Broadcast, "id" | "name" | "updatedAt">,
  plan: { audience: Audience; estimate: EstimatePublic; scheduleFor: Date | null },
  now: Date,
): Promise<void> {
  const uid = current.id;
  const { audience, estimate, scheduleFor } = plan;
  await db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (row.status !== "DRAFT" && row.status !== "SCHEDULED") throw stateConflict(uid, row.status, "start");
    const fresh = await tx.broadcast.findUniqueOrThrow({ where: { id: uid }, select: { updatedAt: true } });
    if (fresh.updatedAt.getTime() !== current.updatedAt.getTime()) {
      throw new ApiError("BROADCAST_STATE_CONFLICT", `Broadcast ${uid} was changed meanwhile: try again`, {
        status: row.status,
      });
    }
    // Who started it, in the same transaction (docs/security.md "Audit log"); a scheduled
    // start is recorded when it is asked for, the time it will start in its details.
    await recordAudit(tx, {
      ...auditContext(p),
      action: "broadcast.started",
      target: { type: "broadcast", uid },
      details: { name: current.name, scheduledAt: scheduleFor?.toISOString() ?? null },
    });
    if (audience.segmentUid !== undefined) {
      await tx.broadcast.update({
        where: { id: uid },
        data: { audience: audience as unknown as Prisma.InputJsonValue },
      });
    }
    if (scheduleFor) {
      await tx.broadcast.update({
        where: { id: uid },
        data: { status: "SCHEDULED", scheduledAt: scheduleFor, estimate: estimate as Prisma.InputJsonValue },
      });
      return;
    }
    await enterStarting(tx, uid, estimate, now);
  }, STATE_CHANGE);
  if (!scheduleFor) await materialise(uid, startChunks.requestBudgetMs);
}

/**
 * DRAFT/SCHEDULED -> STARTING in the caller's transaction (the row locked), the caller holding
 * the start's lease; the recipients come in chunks (materialise), then SENDING and
 * broadcast.started.
 */
export async function enterStarting(tx: Tx, id: string, estimate: EstimatePublic | null, now: Date): Promise<void> {
  await tx.broadcast.update({
    where: { id },
    data: {
      status: "STARTING",
      startedAt: now,
      startCursor: null,
      pauseReason: null,
      resumesAt: null,
      lockedUntil: new Date(Date.now() + startChunks.leaseMs),
      ...(estimate ? { estimate: estimate as Prisma.InputJsonValue } : {}),
    },
  });
}

/**
 * Starts scheduled broadcasts that are due: each claimed by one worker under a lease, made
 * STARTING once (under the row lock), then its recipients made in chunks for a moment
 * (materialise; the housekeeping goes on from the cursor).
 */
export async function startDue(o: Housekeeping): Promise<number> {
  const now = o.now();
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE "Broadcast" SET "lockedUntil" = ${UTC(1)} WHERE id IN (
       SELECT id FROM "Broadcast" WHERE status = 'SCHEDULED' AND "scheduledAt" <= ${UTC(2)}
          AND ("lockedUntil" IS NULL OR "lockedUntil" < ${UTC(2)}) AND ($3::text[] IS NULL OR "customerId" = ANY($3::text[]))
        ORDER BY "scheduledAt" LIMIT 5 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    later(now, o.leaseMs),
    now.toISOString(),
    o.customerIds,
  );
  for (const { id } of rows) {
    try {
      const starting = await db.$transaction(async (tx) => {
        const [locked] = await tx.$queryRawUnsafe<{ status: string }[]>(
          `SELECT status::text AS status FROM "Broadcast" WHERE id = $1 FOR UPDATE`,
          id,
        );
        if (locked?.status !== "SCHEDULED") return false;
        await enterStarting(tx, id, null, now);
        return true;
      });
      if (starting) await materialise(id, STARTING_BUDGET_MS, o.now);
    } catch (error) {
      log.error({ err: error, broadcastUid: id }, "scheduled broadcast not started");
    }
  }
  return rows.length;
}

/** SENDING -> PAUSED by a person; PAUSED stays PAUSED (idempotent). */
export async function pause(scope: Scope, uid: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (row.status === "PAUSED") return;
    if (row.status !== "SENDING") throw stateConflict(uid, row.status, "be paused");
    await pauseLocked(tx, row, null, null);
  }, STATE_CHANGE);
}

/** Pauses a locked SENDING broadcast (by a person: reason null) and emits broadcast.paused. */
async function pauseLocked(
  tx: Tx,
  row: Pick<Broadcast, "id" | "senderId">,
  reason: string | null,
  resumesAt: Date | null,
): Promise<void> {
  await tx.broadcast.update({ where: { id: row.id }, data: { status: "PAUSED", pauseReason: reason, resumesAt } });
  const s = await tx.sender.findUniqueOrThrow({ where: { id: row.senderId } });
  await broadcastEvent(tx, s, "broadcast.paused", row.id, {
    status: "PAUSED",
    pauseReason: reason,
    resumesAt: resumesAt?.toISOString() ?? null,
  });
}

/** Pauses a SENDING broadcast for a reason of the service (locked; a person's change wins). */
export async function pauseForService(
  b: Pick<Broadcast, "id" | "senderId">,
  reason: string,
  resumesAt: Date | null = null,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRawUnsafe<{ status: string }[]>(
      `SELECT status::text AS status FROM "Broadcast" WHERE id = $1 FOR UPDATE`,
      b.id,
    );
    if (locked?.status === "SENDING") await pauseLocked(tx, b, reason, resumesAt);
  });
}

/** PAUSED -> SENDING by a person; SENDING stays SENDING (idempotent). */
export async function resume(scope: Scope, uid: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (row.status === "SENDING") return;
    if (row.status !== "PAUSED") throw stateConflict(uid, row.status, "be resumed");
    await tx.broadcast.update({ where: { id: uid }, data: { status: "SENDING", pauseReason: null, resumesAt: null } });
  }, STATE_CHANGE);
}

/** Broadcasts paused for the messaging limit resume by themselves at resumesAt. */
export async function resumeDue(o: Pick<Housekeeping, "now" | "customerIds">): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "Broadcast" SET status = 'SENDING', "pauseReason" = NULL, "resumesAt" = NULL, "updatedAt" = ${UTC(1)}
      WHERE status = 'PAUSED' AND "pauseReason" = 'messaging_limit' AND "resumesAt" <= ${UTC(1)}
        AND ($2::text[] IS NULL OR "customerId" = ANY($2::text[]))`,
    o.now().toISOString(),
    o.customerIds,
  );
}

/**
 * Any state but COMPLETED -> CANCELLED, at once: the state first, in a short transaction (so
 * nothing more is claimed or marked sending); then its queued recipients become skipped
 * (cancelled) in bounded chunks, for a moment here and the rest by the dispatcher's
 * housekeeping (lib/domains/broadcasts/cancel-sweep.ts), resumable after a crash.
 */
export async function cancel(p: Principal, scope: Scope, uid: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (row.status === "CANCELLED") return;
    if (row.status === "COMPLETED") throw stateConflict(uid, row.status, "be cancelled");
    await tx.broadcast.update({
      where: { id: uid },
      data: { status: "CANCELLED", pauseReason: null, resumesAt: null, completedAt: new Date() },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "broadcast.cancelled",
      target: { type: "broadcast", uid },
      details: { previousStatus: row.status },
    });
  }, STATE_CHANGE);
  await skipCancelled(uid, cancelSweep.requestBudgetMs);
}

/** COMPLETED once no recipient is queued or sending; broadcast.completed with counts and cost. */
export async function completeIfDone(b: Broadcast, sender: Sender, now: Date): Promise<boolean> {
  const done = await db.$transaction(async (tx) => {
    // The row lock first, then the check in a statement of its own: a change that queued
    // recipients under the lock ("retry failed") has committed by then and is seen. (One
    // UPDATE ... WHERE NOT EXISTS would wait for the lock and then judge by its older snapshot.)
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM "Broadcast" WHERE id = $1 AND status = 'SENDING' FOR UPDATE`,
      b.id,
    );
    if (locked.length === 0) return false;
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE "Broadcast" SET status = 'COMPLETED', "completedAt" = ${UTC(2)}, "updatedAt" = ${UTC(2)}
        WHERE id = $1 AND status = 'SENDING'
          AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" r WHERE r."broadcastId" = $1 AND r.status IN ('queued', 'sending'))
        RETURNING id`,
      b.id,
      now.toISOString(),
    );
    return rows.length > 0;
  });
  if (!done) return false;
  const row = await db.broadcast.findUniqueOrThrow({ where: { id: b.id }, include: { sender: true } });
  const extras = (await extrasOf(b.customerId, [row])).get(b.id);
  await broadcastEvent(db, sender, "broadcast.completed", b.id, {
    status: "COMPLETED",
    counts: extras?.counts,
    cost: extras?.cost ?? 0,
  });
  return true;
}

/**
 * COMPLETED -> SENDING in the caller's transaction (the row locked): failed recipients were
 * queued again (retry-failed.ts); it says broadcast.completed again when it ends.
 */
export async function reopenLocked(tx: Tx, id: string): Promise<void> {
  await tx.broadcast.update({ where: { id }, data: { status: "SENDING", completedAt: null } });
}

/**
 * PAUSED (insufficient_balance) -> SENDING after a top-up (top-up.ts), by one conditional
 * UPDATE: only if it is still paused for that reason (a person's pause, or a broadcast
 * cancelled meanwhile, stays as it is). Whether it resumed.
 */
export async function resumeFunded(id: string): Promise<boolean> {
  const changed = await db.broadcast.updateMany({
    where: { id, status: "PAUSED", pauseReason: "insufficient_balance" },
    data: { status: "SENDING", pauseReason: null, resumesAt: null },
  });
  return changed.count === 1;
}
