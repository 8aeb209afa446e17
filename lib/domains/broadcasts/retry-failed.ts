// "Retry failed" (docs/broadcasts.md "Retrying failed recipients"): a broadcast's recipients
// that failed with a code that a later attempt can get past are queued again. The state
// first, in one short transaction with the broadcast's row locked (counted, priced, a
// COMPLETED broadcast SENDING again, audited, and the first chunk queued, so the broadcast is
// never SENDING with nothing to send); the rest in bounded chunks afterwards, each its own
// statement, with no lock held between them (never one UPDATE over every failed row while
// the row lock and a pooled connection wait on it). 131049 (the provider's marketing frequency
// cap for that user) is retried no earlier than 24 hours after the failure; a code about
// the template, the parameters or the number is never retried (it would fail again and,
// for some, be billed). `interrupted` recipients are not retried: whether the provider
// sent them is unknown (docs/broadcasts.md "Crashes").
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import type { Principal } from "@/lib/domains/auth/principal";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import { MARKETING_CAP, MESSAGING_LIMIT_HIT, RETRYABLE_CODES } from "@/lib/domains/provider/error-codes";
import type { Sender } from "@/lib/generated/prisma/client";
import { assertBalanceCovers, costOf } from "./cost";
import { reopenLocked } from "./lifecycle";
import type { BroadcastRow } from "./serializers";
import { approved, broadcastScope, getBroadcast, templateOf } from "./service";
import { lockBroadcast, STATE_CHANGE, stateConflict } from "./state-lock";

/**
 * Failures a later attempt can get past: throughput and pair rate, the messaging limit, and
 * the provider's transient errors (1, 2: API unavailable; 131000: something went wrong;
 * 131016: service unavailable; 133004: server temporarily unavailable).
 */
export const RETRY_FAILED_CODES: readonly number[] = [
  ...RETRYABLE_CODES,
  MESSAGING_LIMIT_HIT,
  1,
  2,
  131000,
  131016,
  133004,
];
/** 131049 is not retried within this long of the failure (the provider's guidance). */
export const MARKETING_CAP_WAIT_MS = 24 * 60 * 60 * 1000;

/** Recipients queued again per statement (tests make it small to prove the chunking). */
export const retryChunks = { chunk: 5_000 };

export type RetryOutcome = {
  broadcast: BroadcastRow;
  /** Recipients queued again now. */
  requeued: number;
  /** 131049 failures younger than 24 hours: retryable from `retryableAt`. */
  waiting: number;
  retryableAt: Date | null;
};

type Waiting = { waiting: number; oldest_waiting: Date | null };

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
// $1 broadcast, $2 codes, $3 the marketing cap code, $4 the cut-off for 131049 failures.
const ELIGIBLE = `("errorCode" = ANY($2::int[]) OR ("errorCode" = $3 AND "failedAt" <= ${UTC(4)}))`;

/** The 131049 failures younger than 24 hours: how many, and the oldest one's failure. */
async function waitingOf(tx: Tx, uid: string, cutoff: Date): Promise<Waiting> {
  const rows = await tx.$queryRawUnsafe<Waiting[]>(
    `SELECT count(*)::int AS waiting, min("failedAt") AS oldest_waiting
       FROM "BroadcastRecipient"
      WHERE "broadcastId" = $1 AND status = 'failed' AND "errorCode" = $2 AND "failedAt" > ${UTC(3)}`,
    uid,
    MARKETING_CAP,
    cutoff.toISOString(),
  );
  return rows[0] ?? { waiting: 0, oldest_waiting: null };
}

/** The retryable failures now (what the retry is priced on). */
async function eligibleOf(tx: Tx, uid: string, cutoff: Date): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "BroadcastRecipient" WHERE "broadcastId" = $1 AND status = 'failed' AND ${ELIGIBLE}`,
    uid,
    RETRY_FAILED_CODES,
    MARKETING_CAP,
    cutoff.toISOString(),
  );
  return rows[0]?.n ?? 0;
}

type Chunk = { picked: number; requeued: number; last: string | null };

/**
 * Queues again up to one chunk of the retryable failures after recipient id `after` (ids in
 * order, so each chunk starts where the last ended), only while the broadcast is SENDING or
 * PAUSED (a cancel meanwhile stops the retry). A new attempt: a new message id (the
 * dispatcher's comes from attempts), and the old message's late statuses no longer reach the
 * row (they match on messageId).
 */
async function requeueChunk(tx: Tx, uid: string, cutoff: Date, now: Date, after: string | null): Promise<Chunk> {
  const rows = await tx.$queryRawUnsafe<Chunk[]>(
    `WITH picked AS (
       SELECT id FROM "BroadcastRecipient"
        WHERE "broadcastId" = $1 AND status = 'failed' AND ${ELIGIBLE} AND ($6::bigint IS NULL OR id > $6::bigint)
        ORDER BY id LIMIT $7),
     done AS (
       UPDATE "BroadcastRecipient" r
          SET status = 'queued', "errorCode" = NULL, "errorMessage" = NULL, "failedAt" = NULL,
              "messageId" = NULL, "providerMessageId" = NULL, "lockedUntil" = NULL, "sendingAt" = NULL,
              "notBefore" = ${UTC(5)}, "updatedAt" = ${UTC(5)}
         FROM picked
        WHERE r.id = picked.id AND r.status = 'failed'
          AND EXISTS (SELECT 1 FROM "Broadcast" b WHERE b.id = $1 AND b.status IN ('SENDING', 'PAUSED'))
        RETURNING r.id)
     SELECT (SELECT count(*)::int FROM picked) AS picked, (SELECT count(*)::int FROM done) AS requeued,
            (SELECT max(id)::text FROM picked) AS last`,
    uid,
    RETRY_FAILED_CODES,
    MARKETING_CAP,
    cutoff.toISOString(),
    now.toISOString(),
    after,
    retryChunks.chunk,
  );
  return rows[0] ?? { picked: 0, requeued: 0, last: null };
}

/**
 * Queues the retryable failures of a SENDING, PAUSED or COMPLETED broadcast again (a
 * COMPLETED one is SENDING again, and says broadcast.completed again when it ends). The
 * balance must cover the retried recipients (402 INSUFFICIENT_BALANCE with {estimate,
 * balance, currency}; recipients still queued are not counted: the send pipeline pauses the
 * broadcast if the balance runs out); a refusal changes nothing.
 */
export async function retryFailedRecipients(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  now = new Date(),
): Promise<RetryOutcome> {
  const scope = broadcastScope(p, sender);
  const current = await getBroadcast(p, sender, uid);
  const template = await templateOf(p.customerId, current.templateName, current.templateLanguage);
  approved(template);
  const balance = await ledgerBalance(p.customerId);
  const cutoff = new Date(now.getTime() - MARKETING_CAP_WAIT_MS);
  const first = await db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (!["SENDING", "PAUSED", "COMPLETED"].includes(row.status)) {
      throw stateConflict(uid, row.status, "retry its failed recipients");
    }
    const eligible = await eligibleOf(tx, uid, cutoff);
    const waiting = await waitingOf(tx, uid, cutoff);
    if (eligible === 0) return { chunk: null, ...waiting };
    const price = await costOf(tx, p.customerId, template.category, eligible);
    assertBalanceCovers(balance, price, `retrying ${eligible} recipients`);
    if (row.status === "COMPLETED") await reopenLocked(tx, uid);
    const chunk = await requeueChunk(tx, uid, cutoff, now, null);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "broadcast.retried",
      target: { type: "broadcast", uid },
      details: { requeued: eligible, previousStatus: row.status },
    });
    return { chunk, ...waiting };
  }, STATE_CHANGE);
  // The rest, a chunk a statement: no lock held, a pooled connection only for each statement.
  let requeued = first.chunk?.requeued ?? 0;
  let chunk = first.chunk;
  while (chunk && chunk.picked === retryChunks.chunk && chunk.requeued > 0) {
    const last: string | null = chunk.last;
    chunk = await requeueChunk(db, uid, cutoff, now, last);
    requeued += chunk.requeued;
  }
  return {
    broadcast: await getBroadcast(p, sender, uid),
    requeued,
    waiting: first.waiting,
    retryableAt: first.oldest_waiting ? new Date(first.oldest_waiting.getTime() + MARKETING_CAP_WAIT_MS) : null,
  };
}
