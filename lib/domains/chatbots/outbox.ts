// The chatbot outbox's SQL: claiming due replies under a lease (FOR UPDATE SKIP LOCKED:
// several workers never hold the same row), and writing a result fenced by that lease
// (a worker whose lease expired and was re-claimed cannot overwrite the new holder).
import { db } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";

export type ClaimedReply = {
  id: string;
  customerId: string;
  senderId: string;
  contactPhoneNumber: string;
  reply: unknown;
  /** Shown as the sender of the reply in the conversation. */
  chatbotName: string;
  /** Claims so far, this one included. */
  attempts: number;
  lease: string;
  createdAt: Date;
};

/** Claims up to `limit` due PENDING replies for `leaseMs`. */
export async function claimReplies(
  limit: number,
  leaseMs: number,
  customerIds: string[] | null,
): Promise<ClaimedReply[]> {
  const scope = customerIds ? `AND "customerId" = ANY($3::text[])` : "";
  return db.$queryRawUnsafe<ClaimedReply[]>(
    `WITH due AS MATERIALIZED (
       SELECT id FROM "ChatbotReply"
       WHERE status = 'PENDING' AND "nextAttemptAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "nextAttemptAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "ChatbotReply" AS r
     SET "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), attempts = r.attempts + 1, "updatedAt" = ${NOW_UTC}
     FROM due WHERE r.id = due.id
     RETURNING r.id, r."customerId", r."senderId", r."contactPhoneNumber", r.reply,
       (SELECT c.name FROM "Chatbot" AS c WHERE c.id = r."chatbotId") AS "chatbotName", r.attempts,
       r."lockedUntil"::text AS lease, r."createdAt"`,
    ...(customerIds ? [limit, leaseMs, customerIds] : [limit, leaseMs]),
  );
}

export type ReplyOutcome =
  | { status: "SENT"; messageId: string }
  | { status: "FAILED"; messageId: string | null; error: string }
  | { status: "PENDING"; error: string; delayMs: number };

/** Records the outcome of one claim; false when the lease was lost (another worker holds the row). */
export async function finishReply(row: Pick<ClaimedReply, "id" | "lease">, outcome: ReplyOutcome): Promise<boolean> {
  const count = await db.$executeRawUnsafe(
    `UPDATE "ChatbotReply" SET status = $3::"ChatbotReplyStatus", "messageId" = $4, "lastError" = $5,
       "nextAttemptAt" = ${NOW_UTC} + ($6 * interval '1 millisecond'), "lockedUntil" = NULL, "updatedAt" = ${NOW_UTC}
     WHERE id = $1 AND "lockedUntil" = $2::timestamp(3)`,
    row.id,
    row.lease,
    outcome.status,
    outcome.status === "PENDING" ? null : outcome.messageId,
    outcome.status === "SENT" ? null : outcome.error.slice(0, 500),
    outcome.status === "PENDING" ? outcome.delayMs : 0,
  );
  return count === 1;
}
