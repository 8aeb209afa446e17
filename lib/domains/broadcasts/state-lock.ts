// The lock a state change of a broadcast takes (docs/broadcasts.md "States"): its row,
// SELECT ... FOR UPDATE with the tenant in the WHERE, waited for 2 seconds at most, in a
// short transaction (lifecycle.ts makes the changes; retry-failed.ts takes it too). Another
// customer's or sender's uid is BROADCAST_NOT_FOUND; a change the state does not allow, or a
// lock held too long, BROADCAST_STATE_CONFLICT.
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import type { Broadcast } from "@/lib/generated/prisma/client";

export const broadcastNotFound = (uid: string) =>
  new ApiError("BROADCAST_NOT_FOUND", `Broadcast ${uid} not found for this account and sender`);

export const stateConflict = (uid: string, status: string, action: string) =>
  new ApiError("BROADCAST_STATE_CONFLICT", `Broadcast ${uid} is ${status}: it cannot ${action}`, { status });

/** The tenant part of a state change's WHERE: the customer, and the sender when one is resolved or bound. */
export type Scope = { customerId: string; senderId?: string };

type Locked = Pick<Broadcast, "id" | "status" | "senderId" | "customerId">;

/**
 * A state change's transaction: it may wait this long for a pooled connection (a burst of
 * changes on a busy database queues for one rather than failing).
 */
export const STATE_CHANGE = { maxWait: 10_000 } as const;

/**
 * How long a state change waits for the broadcast's row lock (docs/broadcasts.md "States"):
 * past it, 409 BROADCAST_STATE_CONFLICT ("try again"), never a pooled connection held on a
 * lock that can last.
 */
const LOCK_TIMEOUT_MS = 2_000;

/** PostgreSQL's lock_not_available (55P03) or query_canceled (57014: the statement's timeout) in a Prisma error. */
function isLockTimeout(error: unknown): boolean {
  const e = error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } }; message?: unknown };
  const code = e?.meta?.driverAdapterError?.cause?.originalCode;
  return code === "55P03" || code === "57014" || /Code: `(55P03|57014)`/.test(String(e?.message));
}

/** Locks the broadcast's row for a state change (tenant in the WHERE), waiting LOCK_TIMEOUT_MS at most. */
export async function lockBroadcast(tx: Tx, scope: Scope, uid: string): Promise<Locked> {
  const args = [uid, scope.customerId, scope.senderId ?? null] as const;
  const where = `WHERE id = $1 AND "customerId" = $2 AND ($3::text IS NULL OR "senderId" = $3)`;
  const [seen] = await tx.$queryRawUnsafe<Locked[]>(
    `SELECT id, status::text AS status, "senderId", "customerId" FROM "Broadcast" ${where}`,
    ...args,
  );
  if (!seen) throw broadcastNotFound(uid);
  // lock_timeout bounds each lock the statement waits for, and a row's waiters queue on one
  // another's tuple locks too: the statement's own timeout bounds the whole wait.
  const [prev] = await tx.$queryRawUnsafe<{ prev: string }[]>(
    `SELECT current_setting('statement_timeout') AS prev, set_config('lock_timeout', $1, true),
            set_config('statement_timeout', $1, true)`,
    `${LOCK_TIMEOUT_MS}ms`,
  );
  let rows: Locked[];
  try {
    rows = await tx.$queryRawUnsafe<Locked[]>(
      `SELECT id, status::text AS status, "senderId", "customerId" FROM "Broadcast" ${where} FOR UPDATE`,
      ...args,
    );
    await tx.$executeRawUnsafe(`SELECT set_config('statement_timeout', $1, true)`, prev?.prev ?? "0");
  } catch (error) {
    if (!isLockTimeout(error)) throw error;
    throw new ApiError(
      "BROADCAST_STATE_CONFLICT",
      `Broadcast ${uid} is ${seen.status} and being changed by another request: try again`,
      { status: seen.status },
    );
  }
  const row = rows[0];
  if (!row) throw broadcastNotFound(uid);
  return row;
}
