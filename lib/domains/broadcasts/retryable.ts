// What "Retry failed" would queue right now (docs/broadcasts.md "Retrying failed recipients"),
// read without changing anything, so a page offers the retry only when something can be
// retried: the failures whose code a later attempt can get past, and the marketing-cap
// failures (131049) older than 24 hours; the younger ones wait, and say until when.
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { MARKETING_CAP } from "@/lib/domains/provider/error-codes";
import { MARKETING_CAP_WAIT_MS, RETRY_FAILED_CODES } from "./retry-failed";

export type Retryable = {
  /** Failed recipients a retry would queue now. */
  now: number;
  /** 131049 failures younger than 24 hours, retryable from `retryableAt`. */
  waiting: number;
  retryableAt: Date | null;
};

export async function retryableFailures(p: Principal, uid: string, now = new Date()): Promise<Retryable> {
  const cutoff = new Date(now.getTime() - MARKETING_CAP_WAIT_MS);
  const failed = { broadcastId: uid, customerId: p.customerId, status: "failed" } as const;
  const [retryNow, waiting] = await Promise.all([
    db.broadcastRecipient.count({
      where: {
        ...failed,
        OR: [{ errorCode: { in: [...RETRY_FAILED_CODES] } }, { errorCode: MARKETING_CAP, failedAt: { lte: cutoff } }],
      },
    }),
    db.broadcastRecipient.aggregate({
      where: { ...failed, errorCode: MARKETING_CAP, failedAt: { gt: cutoff } },
      _count: { _all: true },
      _min: { failedAt: true },
    }),
  ]);
  const oldest = waiting._min.failedAt;
  return {
    now: retryNow,
    waiting: waiting._count._all,
    retryableAt: oldest ? new Date(oldest.getTime() + MARKETING_CAP_WAIT_MS) : null,
  };
}
