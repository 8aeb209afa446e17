// A batch's outcomes (docs/broadcasts.md "How it sends", step 6), written after its calls:
// each send's Message row is written before its provider call and completed after it
// (docs/messaging.md "Write, call, complete"); the recipients take their outcomes from those
// messages, the whole batch in one statement each for the final ones and the re-queued ones.
// A worker that dies before this write leaves them "sending", settled from their messages
// once the lease has passed (stale-sends.ts). Then the batch's events and live notices, one
// statement each: the sends stand whatever happens to them.
import { log } from "@/lib/core/log";
import { hotRows } from "@/lib/db";
import { plainDb } from "@/lib/db/plain-tx";
import { announceCreated, type CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { emitAcceptedBatch } from "@/lib/domains/messaging/accepted-event";
import { PAIR_RATE_LIMIT, THROUGHPUT_EXCEEDED } from "@/lib/domains/provider/error-codes";
import type { ProviderSender } from "@/lib/domains/provider/types";
import type { Message } from "@/lib/generated/prisma/client";
import { type Claimed, PAIR_INTERVAL_MS } from "./claiming";
import { recipientsFollowMessages } from "./recipient-statuses";

/** A statement of the batch on plain pg, not the ORM (claiming.ts, lib/db/pool.ts hotRows). */
const plain = (text: string, ...values: unknown[]) => hotRows({ text, values });

type Finish = {
  id: bigint;
  /** The message the outcome is about: a recipient takes it only while that is its current attempt's. */
  messageId: string;
  status: "accepted" | "failed" | "interrupted";
  errorCode?: number | null;
  errorMessage?: string | null;
  providerMessageId?: string | null;
};
/** A recipient's outcome: final, or back to the queue after a wait (130429, 131056). */
export type Outcome = Finish | { id: bigint; messageId: string; status: "queued"; notBefore: Date };

/** Claimed rows the send pipeline's checks refused for good (no message was made): failed. */
export async function failUnsent(failed: { id: bigint; code: number | null; message: string }[]): Promise<void> {
  if (failed.length === 0) return;
  await plain(
    `UPDATE "BroadcastRecipient" AS r SET status = 'failed', "errorCode" = u.code, "errorMessage" = u.message,
            "lockedUntil" = NULL, "failedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now() AT TIME ZONE 'UTC'
       FROM unnest($1::bigint[], $2::int[], $3::text[]) AS u(id, code, message) WHERE r.id = u.id AND r.status = 'queued'`,
    failed.map((f) => f.id),
    failed.map((f) => f.code),
    failed.map((f) => f.message.slice(0, 500)),
  );
}

/**
 * The outcomes of a batch in one statement each for the final ones and the re-queued ones,
 * written from what was sent: each only onto the recipient whose current attempt is that
 * message (a retry since made a new one), from "sending", or from "interrupted" when the
 * stale-send rule got there first.
 */
export async function finishAll(outcomes: Outcome[]): Promise<void> {
  // In id order, the order the callback processor locks recipients in (no 40P01 with a batch).
  const final = outcomes.filter((o): o is Finish => o.status !== "queued").sort((a, b) => (a.id < b.id ? -1 : 1));
  const again = outcomes.filter((o): o is Extract<Outcome, { status: "queued" }> => o.status === "queued");
  if (final.length > 0) {
    await plain(
      `WITH locked AS (SELECT id FROM "BroadcastRecipient" WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)
       UPDATE "BroadcastRecipient" AS r SET status = u.status::"BroadcastRecipientStatus", "errorCode" = u.code,
              "errorMessage" = u.message, "providerMessageId" = COALESCE(u.pid, r."providerMessageId"), "lockedUntil" = NULL,
              "failedAt" = CASE WHEN u.status = 'failed' THEN now() AT TIME ZONE 'UTC' ELSE r."failedAt" END,
              "updatedAt" = now() AT TIME ZONE 'UTC'
         FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) AS u(id, status, code, message, pid, mid), locked l
        WHERE l.id = u.id AND r.id = u.id AND r."messageId" = u.mid AND r.status IN ('sending', 'interrupted')`,
      final.map((f) => f.id),
      final.map((f) => f.status),
      final.map((f) => f.errorCode ?? null),
      final.map((f) => f.errorMessage?.slice(0, 500) ?? null),
      final.map((f) => f.providerMessageId ?? null),
      final.map((f) => f.messageId),
    );
    // A status the callback processor applied before this write (the message is past accepted):
    // the recipient is not left behind its message.
    await recipientsFollowMessages(
      plainDb,
      final.map((f) => f.messageId),
    );
  }
  if (again.length > 0) {
    // The provider refused them: nothing reached the contact; queued again after the wait.
    await plain(
      `UPDATE "BroadcastRecipient" AS r SET status = 'queued', "lockedUntil" = NULL, "messageId" = NULL, "sendingAt" = NULL,
              "notBefore" = (u.at::timestamptz AT TIME ZONE 'UTC'), "updatedAt" = now() AT TIME ZONE 'UTC'
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, at, mid)
        WHERE r.id = u.id AND r."messageId" = u.mid AND r.status = 'sending'`,
      again.map((a) => a.id),
      again.map((a) => a.notBefore.toISOString()),
      again.map((a) => a.messageId),
    );
  }
}

/** The message's outcome for its recipient; throughput and pair refusals go back to the queue. */
export function outcomeOf(
  r: Claimed,
  messageId: string,
  m: { status: string; providerMessageId: string | null; errorCode: number | null; errorMessage: string | null },
  retryAfterSeconds?: number,
): Outcome {
  if (m.status === "accepted" || m.status === "queued") {
    return { id: r.id, messageId, status: "accepted", providerMessageId: m.providerMessageId };
  }
  if (m.status === "failed" && (m.errorCode === THROUGHPUT_EXCEEDED || m.errorCode === PAIR_RATE_LIMIT)) {
    // A 130429 waits out its Retry-After (at least a window): a retry inside it is refused again.
    const waitMs =
      m.errorCode === PAIR_RATE_LIMIT ? PAIR_INTERVAL_MS : Math.max(1_000, (retryAfterSeconds ?? 1) * 1000);
    return { id: r.id, messageId, status: "queued", notBefore: new Date(Date.now() + waitMs) };
  }
  if (m.status === "failed") {
    return { id: r.id, messageId, status: "failed", errorCode: m.errorCode, errorMessage: m.errorMessage };
  }
  return { id: r.id, messageId, status: "interrupted", errorMessage: "the provider's answer was ambiguous" };
}

/** The batch's conversation.created and message.status.accepted events; the sends stand whatever happens to them. */
export async function announceBatch(
  accepted: { message: Message; sender: ProviderSender }[],
  created: CreatedConversation[],
): Promise<void> {
  try {
    await announceCreated(created);
  } catch (error) {
    log.error({ err: error, count: created.length }, "broadcast batch: conversation.created not emitted");
  }
  await emitAcceptedBatch(accepted);
}

/** The batch's live notices (new messages, their ticks) in one statement; the sends stand whatever happens to it. */
export async function publishLiveBatch(customerId: string, live: LiveEvent[]): Promise<void> {
  try {
    await publishLive(plainDb, customerId, live);
  } catch (error) {
    log.warn({ err: error }, "broadcast batch: live notices not published");
  }
}
