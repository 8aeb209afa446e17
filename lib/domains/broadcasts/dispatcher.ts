// The broadcast dispatcher (docs/broadcasts.md "How it sends"): one pass starts the scheduled
// broadcasts that are due, makes chunks of STARTING ones' recipients, resumes those whose
// messaging-limit pause ended, settles recipients a dead worker left behind (stale-sends.ts),
// skips cancelled ones' queued recipients in chunks, then sends a batch of each SENDING broadcast.
// Several workers and instances run it side by side:
//   - a batch is claimed with FOR UPDATE SKIP LOCKED and a lease (lockedUntil): no two
//     workers hold one recipient; a worker that dies before the provider call lets it go;
//   - a recipient is marked "sending" (with its message id) BEFORE the provider call, so a
//     worker that dies during the call leaves it "sending" and the next pass after the lease
//     settles it from its message: none (never called) queued again, an answered one its
//     status, an unknown outcome "interrupted": never sent again automatically;
//   - the sender's send slots (lib/domains/senders/rate-bucket.ts: no 1,000 ms holds more
//     than its throughput, the broadcast's maxPerSecond spaces its own slots wider), the pair
//     rate and the messaging limit are taken for a claim before its calls, and each call is
//     made at its slot, so the provider never has to refuse; a 130429 it sends all the same
//     holds the sender's slots for its Retry-After, never retried inside the window.

import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { wakeableSleep } from "@/lib/core/wakeable-sleep";
import { db } from "@/lib/db";
import { onWakeup } from "@/lib/db/wakeups";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { announceCreated, type CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { emitAcceptedBatch } from "@/lib/domains/messaging/accepted-event";
import { MAX_ATTEMPTS } from "@/lib/domains/messaging/dispatch";
import { MessagingError } from "@/lib/domains/messaging/errors";
import type { OutgoingMessage } from "@/lib/domains/messaging/outgoing";
import { sendChecked } from "@/lib/domains/messaging/send";
import { checkSends } from "@/lib/domains/messaging/send-checks";
import { PAIR_RATE_LIMIT } from "@/lib/domains/provider/error-codes";
import type { ProviderSender } from "@/lib/domains/provider/types";
import { type Reservation, spacingMs } from "@/lib/domains/senders/pacing";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { holdSlots, localWindows, takeSlots } from "@/lib/domains/senders/rate-bucket";
import { componentsFor } from "@/lib/domains/templates/fill";
import { findTemplate } from "@/lib/domains/templates/send-template";
import type { Broadcast, Message, Sender, Template } from "@/lib/generated/prisma/client";
import { sweepCancelled } from "./cancel-sweep";
import { broadcastEvent } from "./events";
import { continueStarting, materialise } from "./materialise";
import { admitContacts } from "./messaging-limit";
import { publishProgress } from "./progress";
import { recipientsFollowMessages } from "./recipient-statuses";
import { senderLimits } from "./sender-limits";
import { enterStarting, extrasOf, filledValues, pauseLocked } from "./service";
import { settleStaleSends } from "./stale-sends";

/** Throughput refused by the provider: retried later without counting as a failure. */
export const THROUGHPUT_EXCEEDED = 130429;
/** How long a pass makes a starting broadcast's recipients before it turns to sending (the rest: next passes). */
const STARTING_BUDGET_MS = 1_000;
/** One broadcast message per contact per this many milliseconds, across the sender's broadcasts. */
export const PAIR_INTERVAL_MS = 6_000;

export type DispatchOptions = {
  /** How long a claim and a "sending" mark hold before the row is given up (default: every provider attempt's timeout and a margin). */
  leaseMs?: number;
  /** Recipients per claim (default 100). */
  batchSize?: number;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Only these customers' broadcasts (isolated tests). */
  customerIds?: string[] | null;
  /**
   * Start due scheduled broadcasts, resume paused ones and settle stale sends first
   * (default true; the worker loop does it once per poll interval, not before every batch).
   */
  housekeeping?: boolean;
};

/** Whether the options' clock is the real one: only then are calls held to their slots (a test's clock is moved by the test). */
const realClock = (options: DispatchOptions) => options.now === undefined;

/** What a pass did: provider calls made. */
type PassResult = { calls: number };

type Claimed = {
  id: bigint;
  phoneNumber: string;
  parameters: { body?: string[]; header?: string[] } | null;
  attempts: number;
};

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** The local message id of a recipient's attempt: a second worker with the same row cannot record it again. */
export const recipientMessageId = (broadcastId: string, recipientId: bigint, attempt: number) =>
  `msg_${broadcastId}_${recipientId}_${attempt}`;

/**
 * Starts scheduled broadcasts that are due: each claimed by one worker under a lease, made
 * STARTING once (under the row lock), then its recipients made in chunks for a moment
 * (materialise; the housekeeping goes on from the cursor).
 */
async function startDue(o: Required<DispatchOptions>): Promise<number> {
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

/** Broadcasts paused for the messaging limit resume by themselves at resumesAt. */
async function resumeDue(o: Required<DispatchOptions>): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "Broadcast" SET status = 'SENDING', "pauseReason" = NULL, "resumesAt" = NULL, "updatedAt" = ${UTC(1)}
      WHERE status = 'PAUSED' AND "pauseReason" = 'messaging_limit' AND "resumesAt" <= ${UTC(1)}
        AND ($2::text[] IS NULL OR "customerId" = ANY($2::text[]))`,
    o.now().toISOString(),
    o.customerIds,
  );
}

/** Pauses a SENDING broadcast for a reason of the service (locked; a person's change wins). */
async function pauseFor(b: Pick<Broadcast, "id" | "senderId">, reason: string, resumesAt: Date | null = null) {
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRawUnsafe<{ status: string }[]>(
      `SELECT status::text AS status FROM "Broadcast" WHERE id = $1 FOR UPDATE`,
      b.id,
    );
    if (locked?.status === "SENDING") await pauseLocked(tx, b, reason, resumesAt);
  });
}

/** COMPLETED once no recipient is queued or sending; broadcast.completed with counts and cost. */
async function completeIfDone(b: Broadcast, sender: Sender, now: Date): Promise<boolean> {
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
 * Claims up to n due recipients of the broadcast under a lease. The pair rate spans the
 * sender's broadcasts (docs/broadcasts.md "Pair rate"): a contact sent to in the last 6
 * seconds, or claimed right now by another of the sender's broadcasts (claimed rows may wait
 * up to a second for their tokens before they are marked sending), is left for later. Claims
 * of one sender take turns (a transaction-scoped advisory lock), so two workers claiming for
 * two broadcasts at once cannot both take one contact.
 */
export async function claim(
  b: Pick<Broadcast, "id" | "senderId">,
  n: number,
  o: Pick<Required<DispatchOptions>, "now" | "leaseMs">,
): Promise<Claimed[]> {
  const now = o.now();
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `broadcast-claim:${b.senderId}`);
    return tx.$queryRawUnsafe<Claimed[]>(
      `UPDATE "BroadcastRecipient" r SET "lockedUntil" = ${UTC(3)}
        WHERE r.id IN (
          SELECT q.id FROM "BroadcastRecipient" q
           WHERE q."broadcastId" = $1 AND q.status = 'queued' AND q."notBefore" <= ${UTC(4)}
             AND (q."lockedUntil" IS NULL OR q."lockedUntil" < ${UTC(4)})
             AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" x
                              WHERE x."senderId" = q."senderId" AND x."phoneNumber" = q."phoneNumber"
                                AND (x."sendingAt" > ${UTC(5)}
                                     OR (x."broadcastId" <> q."broadcastId" AND x.status = 'queued'
                                         AND x."lockedUntil" > ${UTC(4)})))
           ORDER BY q.id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING r.id, r."phoneNumber", r.parameters, r.attempts`,
      b.id,
      n,
      later(now, o.leaseMs),
      now.toISOString(),
      new Date(now.getTime() - PAIR_INTERVAL_MS).toISOString(),
    );
  });
}

/** Gives claimed rows back (queued, due at notBefore) without counting an attempt. */
async function release(ids: bigint[], notBefore: Date | null = null): Promise<void> {
  if (ids.length === 0) return;
  await db.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" SET "lockedUntil" = NULL,
            "notBefore" = COALESCE(${UTC(2)}, "notBefore"), "updatedAt" = now() AT TIME ZONE 'UTC'
      WHERE id = ANY($1::bigint[]) AND status = 'queued'`,
    ids,
    notBefore?.toISOString() ?? null,
  );
}

async function setSkipped(ids: bigint[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await db.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" SET status = 'skipped', "skipReason" = $2, "lockedUntil" = NULL,
            "updatedAt" = now() AT TIME ZONE 'UTC' WHERE id = ANY($1::bigint[]) AND status = 'queued'`,
    ids,
    reason,
  );
}

function outgoing(b: Broadcast, template: Template, r: Claimed): OutgoingMessage {
  const components = componentsFor(template.components, filledValues(r.parameters));
  return {
    sendRoute: "send",
    recipient: r.phoneNumber,
    template: { name: template.name, language: template.language },
    payload: {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: r.phoneNumber,
      type: "template",
      template: {
        name: template.name,
        language: { code: template.language },
        ...(components.length > 0 ? { components } : {}),
      },
    },
    messageId: recipientMessageId(b.id, r.id, r.attempts + 1),
    broadcastId: b.id,
    sentBy: { by: "api", label: `Broadcast ${b.name}` },
  };
}

const PAUSE_FOR_REFUSAL: Record<string, string> = {
  INSUFFICIENT_BALANCE: "insufficient_balance",
  TEMPLATE_NOT_APPROVED: "template_not_approved",
  TEMPLATE_NOT_FOUND: "template_not_approved",
  SENDER_DISCONNECTED: "sender_disconnected",
};

const NOTHING: PassResult = { calls: 0 };

/** Sends one batch of a SENDING broadcast: the provider calls it made. */
async function dispatchBatch(b: Broadcast, o: Required<DispatchOptions> & { real: boolean }): Promise<PassResult> {
  const sender = await db.sender.findUniqueOrThrow({ where: { id: b.senderId } });
  if (sender.connectionStatus === "DISCONNECTED") {
    await pauseFor(b, "sender_disconnected");
    return NOTHING;
  }
  if (sender.connectionStatus === "RECONNECTING") return NOTHING;
  const template = await findTemplate(b.customerId, b.templateName, b.templateLanguage);
  if (template?.status !== "APPROVED") {
    await pauseFor(b, "template_not_approved");
    return NOTHING;
  }
  const limits = senderLimits(sender);
  // A claim is a second's worth of the pace (100 at most), and a worker's other lane claims and
  // checks the next batch while this one's calls still go at their slots (startBroadcastWorker):
  // the pace has no gaps between batches. The slots are taken when the calls are ready (pacedCalls).
  const perSecond = Math.min(limits.throughputPerSecond, b.maxPerSecond ?? limits.throughputPerSecond);
  const candidates = await claim(b, Math.max(1, Math.min(o.batchSize, perSecond)), o);
  if (candidates.length === 0) {
    await completeIfDone(b, sender, o.now());
    return NOTHING;
  }
  const take = (at: number, want: number) =>
    takeSlots(sender.id, want, {
      perSecond: limits.throughputPerSecond,
      broadcast: true,
      minSpacingMs: b.maxPerSecond ? spacingMs(b.maxPerSecond) : 0,
      now: at,
    });
  const claimed = candidates;
  // The messaging limit: contacts past the tier go back and the broadcast pauses until resumesAt.
  const admission = await admitContacts(
    limits,
    sender,
    claimed.map((r) => r.phoneNumber),
    o.now(),
  );
  const admitted = claimed.filter((r) => admission.admitted.has(r.phoneNumber));
  // The service's own pause comes after the batch's admitted sends: they hold their tokens and
  // reservations, and the sending mark below needs the broadcast SENDING.
  let pause: { reason: string; resumesAt: Date | null } | null = null;
  if (admitted.length < claimed.length) {
    await release(claimed.filter((r) => !admission.admitted.has(r.phoneNumber)).map((r) => r.id));
    pause = { reason: "messaging_limit", resumesAt: admission.resumesAt };
  }
  try {
    return {
      calls: await sendAdmitted(b, template, sender, admitted, take, o, (reason) => {
        pause ??= { reason, resumesAt: null };
      }),
    };
  } finally {
    if (pause) await pauseFor(b, pause.reason, pause.resumesAt);
  }
}

/** Checks, marks and sends the admitted recipients of a batch; the provider calls made. */
async function sendAdmitted(
  b: Broadcast,
  template: Template,
  sender: Sender,
  admitted: Claimed[],
  take: (at: number, want: number) => Promise<Reservation>,
  o: Required<DispatchOptions> & { real: boolean },
  pauseFor: (reason: string) => void,
): Promise<number> {
  if (admitted.length === 0) return 0;
  const p = systemPrincipal(b.customerId);
  const outs = admitted.map((r) => outgoing(b, template, r));
  const verdicts = await checkSends(p, sender, outs);
  const toSend: { r: Claimed; i: number }[] = [];
  const blacklisted: bigint[] = [];
  const refusedLater: bigint[] = [];
  const failed: { id: bigint; code: number | null; message: string }[] = [];
  verdicts.forEach((v, i) => {
    const r = admitted[i] as Claimed;
    if (v.ok) {
      toSend.push({ r, i });
      return;
    }
    const pause = PAUSE_FOR_REFUSAL[v.refusal.code];
    if (v.refusal.code === "RECIPIENT_BLACKLISTED") blacklisted.push(r.id);
    else if (pause) {
      pauseFor(pause);
      refusedLater.push(r.id);
    } else {
      const code = v.refusal.details.providerCode;
      failed.push({ id: r.id, code: typeof code === "number" ? code : null, message: v.refusal.message });
    }
  });
  await setSkipped(blacklisted, "blacklisted");
  await release(refusedLater);
  await failUnsent(failed);
  if (toSend.length === 0) return 0;
  // "sending" before the call: a worker that dies in the call leaves the row for settleStaleSends.
  // Only while the broadcast is SENDING, read under a share lock of its row: a pause or cancel
  // (which lock it for update) that committed first leaves these rows unmarked, and one that
  // comes later waits for this statement and finds them sending (in flight, not cancelled).
  const marked = await markSending(
    b.id,
    toSend.map((s) => ({ id: s.r.id, messageId: outs[s.i]?.messageId ?? "" })),
    o,
  );
  await release(toSend.filter((s) => !marked.has(s.r.id)).map((s) => s.r.id));
  const going = toSend.filter((s) => marked.has(s.r.id));
  if (going.length === 0) return 0;
  // Each send records its message and calls the provider on its own; the recipients' outcomes
  // and the accepted events are written once for the batch (one statement each, not one per
  // recipient). A worker that dies before that leaves them "sending": settled from their messages (stale-sends.ts).
  const outcomes: Outcome[] = [];
  const accepted: { message: Message; sender: ProviderSender }[] = [];
  const live: LiveEvent[] = [];
  const created: CreatedConversation[] = [];
  const withdrawn: bigint[] = [];
  // The provider refused for throughput all the same: no slot of the sender before its Retry-After.
  let holdUntil = 0;
  const paced = pacedCalls(sender, going.length, take, () => stillSending(b.id), o, {
    key: `broadcast:${b.id}`,
    perSecond: b.maxPerSecond,
  });
  const provider = providerSender(sender);
  await Promise.all(
    going.map(async ({ r, i }) => {
      const v = verdicts[i];
      if (!v?.ok) return;
      const messageId = outs[i]?.messageId ?? "";
      try {
        const { message } = await sendChecked(p, sender, v.send, {
          announce: false,
          live,
          created,
          ...paced.call(),
          throughputRetries: false,
        });
        if (message.status === "accepted") accepted.push({ message, sender: provider });
        outcomes.push(outcomeOf(r, messageId, message));
      } catch (error) {
        if (error instanceof CallWithdrawn) {
          withdrawn.push(r.id);
          return;
        }
        // A provider refusal is thrown after the message row took its outcome: read it there.
        const stored = await db.message.findUnique({ where: { id: messageId } });
        if (stored && stored.status !== "sending") {
          const retryAfter = error instanceof MessagingError ? error.details.retryAfterSeconds : undefined;
          const outcome = outcomeOf(r, messageId, stored, typeof retryAfter === "number" ? retryAfter : undefined);
          if (outcome.status === "queued" && stored.errorCode === THROUGHPUT_EXCEEDED)
            holdUntil = Math.max(holdUntil, outcome.notBefore.getTime());
          outcomes.push(outcome);
          return;
        }
        // Whether the provider got it is not known: interrupted, never resent.
        log.error({ err: error, broadcastUid: b.id }, "broadcast send ended unexpectedly");
        outcomes.push({ id: r.id, messageId, status: "interrupted", errorCode: null, errorMessage: "internal error" });
      }
    }),
  );
  if (holdUntil > 0) await holdSlots(sender.id, holdUntil);
  await unmark(withdrawn);
  await finishAll(outcomes);
  await announceBatch(accepted, created);
  await publishLiveBatch(b.customerId, live);
  return going.length - withdrawn.length;
}

/**
 * Marks claimed rows "sending" with their message ids, if the broadcast is SENDING: its row is
 * read under a share lock, the lock a pause or a cancel takes for update. Returns the rows marked.
 */
async function markSending(
  broadcastId: string,
  rows: { id: bigint; messageId: string }[],
  o: Required<DispatchOptions>,
): Promise<Set<bigint>> {
  const marked = await db.$queryRawUnsafe<{ id: bigint }[]>(
    `WITH b AS (SELECT id FROM "Broadcast" WHERE id = $5 AND status = 'SENDING' FOR SHARE)
     UPDATE "BroadcastRecipient" AS r SET status = 'sending', "messageId" = m.mid, attempts = r.attempts + 1,
            "sendingAt" = ${UTC(3)}, "lockedUntil" = ${UTC(4)}, "updatedAt" = ${UTC(3)}
       FROM unnest($1::bigint[], $2::text[]) AS m(id, mid), b
      WHERE r.id = m.id AND r."broadcastId" = b.id AND r.status = 'queued'
     RETURNING r.id`,
    rows.map((r) => r.id),
    rows.map((r) => r.messageId),
    o.now().toISOString(),
    later(o.now(), o.leaseMs),
    broadcastId,
  );
  return new Set(marked.map((m) => BigInt(m.id)));
}

/** Whether the broadcast is still SENDING, read under the share lock markSending takes. */
async function stillSending(broadcastId: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM "Broadcast" WHERE id = $1 AND status = 'SENDING' FOR SHARE`,
    broadcastId,
  );
  return rows.length > 0;
}

/** A call the dispatcher withdrew before anything was recorded: its broadcast stopped meanwhile. */
class CallWithdrawn extends Error {}

/**
 * Rows marked sending whose calls were withdrawn (nothing recorded, nothing sent): back to the
 * queue, the attempt not counted, or skipped as cancelled when the broadcast was cancelled.
 */
async function unmark(ids: bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await db.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" AS r
        SET status = (CASE WHEN b.status = 'CANCELLED' THEN 'skipped' ELSE 'queued' END)::"BroadcastRecipientStatus",
            "skipReason" = CASE WHEN b.status = 'CANCELLED' THEN 'cancelled' END,
            "messageId" = NULL, attempts = r.attempts - 1, "sendingAt" = NULL, "lockedUntil" = NULL,
            "updatedAt" = now() AT TIME ZONE 'UTC'
       FROM "Broadcast" b WHERE b.id = r."broadcastId" AND r.id = ANY($1::bigint[]) AND r.status = 'sending'`,
    ids,
  );
}

/** How long before its slot a call's message is recorded (the record's own way to the database). */
const RECORD_LEAD_MS = 100;
/** How often the calls waiting for their slots read their broadcast's state again. */
const STATE_CHECK_MS = 250;

const sleepMs = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * Holds each call of a batch to a send slot of the sender (lib/domains/senders/pacing.ts). The
 * slots are taken when the calls are ready, not at the claim (the batch's checks and marks take
 * their time): the first call's beforeCall takes the slots of every call still to come in one
 * take, RECORD_LEAD_MS ahead, and more when a take was short (waiting for them). beforeCall
 * (before the message is recorded) gives its call a slot, waits until just before it and
 * withdraws the call when the broadcast stopped meanwhile (its state read again at most every
 * 250 ms); atCall (right before each provider call) waits for the slot itself (a retry takes
 * another) and lets no call make this process's calls of the sender in any 1,000 ms more than
 * its throughput, nor the broadcast's calls in any 1,000 ms more than its maxPerSecond: a call
 * that came late to its slot (a busy moment) waits rather than bunch with the next ones. (Between processes the slots' 2% margin leaves room for a call a little
 * late: pacing.ts SPACING_MARGIN.) With a test's clock (options.now) no slots are taken.
 */
function pacedCalls(
  sender: Sender,
  calls: number,
  take: (at: number, want: number) => Promise<Reservation>,
  stillSending: () => Promise<boolean>,
  o: Required<DispatchOptions> & { real: boolean },
  own: { key: string; perSecond: number | null },
): { call: () => { beforeCall: () => Promise<void>; atCall: () => Promise<void> } } {
  let slots: Reservation | null = null;
  let used = 0;
  let left = calls;
  let taking: Promise<void> | null = null;
  let checkedAt = Date.now();
  let checking: Promise<boolean> | null = null;
  const limit = senderLimits(sender).throughputPerSecond;
  const takeMore = () => {
    taking ??= (async () => {
      for (;;) {
        const r = await take(Date.now() + RECORD_LEAD_MS, Math.max(1, left));
        if (r.granted > 0) {
          slots = r;
          used = 0;
          return;
        }
        await sleepMs(Math.max(5, r.retryAt - Date.now()));
      }
    })().finally(() => {
      taking = null;
    });
    return taking;
  };
  const nextSlot = async (): Promise<number> => {
    for (;;) {
      const r = slots as Reservation | null;
      if (r && used < r.granted) {
        left -= 1;
        return r.firstAt + used++ * r.spacingMs;
      }
      await takeMore();
    }
  };
  return {
    call() {
      let slot: number | null = null;
      return {
        async beforeCall() {
          // A test's clock takes no slots: they would stand in the sender's timeline at its time.
          if (o.real) {
            slot = await nextSlot();
            await sleepMs(slot - RECORD_LEAD_MS - Date.now());
          }
          if (Date.now() - checkedAt >= STATE_CHECK_MS) {
            checking ??= stillSending().finally(() => {
              checkedAt = Date.now();
              checking = null;
            });
            if (!(await checking)) throw new CallWithdrawn("the broadcast is no longer sending");
          }
        },
        async atCall() {
          if (!o.real) return;
          const at = slot ?? (await nextSlot());
          slot = null;
          await sleepMs(at - Date.now());
          // The sender's throughput, and the broadcast's own maxPerSecond: its slots are spaced
          // wider, but a late call would bunch with the next ones as the sender's would.
          const waitMs = (now: number) =>
            Math.max(
              localWindows.waitMs(sender.id, limit, now),
              own.perSecond ? localWindows.waitMs(own.key, own.perSecond, now) : 0,
            );
          for (let ms = waitMs(Date.now()); ms > 0; ) {
            await sleepMs(ms);
            ms = waitMs(Date.now());
          }
          const calledAt = Date.now();
          localWindows.record(sender.id, calledAt);
          if (own.perSecond) localWindows.record(own.key, calledAt);
        },
      };
    },
  };
}

/** The batch's conversation.created and message.status.accepted events; the sends stand whatever happens to them. */
async function announceBatch(
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
async function publishLiveBatch(customerId: string, live: LiveEvent[]): Promise<void> {
  try {
    await publishLive(db, customerId, live);
  } catch (error) {
    log.warn({ err: error }, "broadcast batch: live notices not published");
  }
}

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
type Outcome = Finish | { id: bigint; messageId: string; status: "queued"; notBefore: Date };

/** Claimed rows the send pipeline's checks refused for good (no message was made): failed. */
async function failUnsent(failed: { id: bigint; code: number | null; message: string }[]): Promise<void> {
  if (failed.length === 0) return;
  await db.$executeRawUnsafe(
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
async function finishAll(outcomes: Outcome[]): Promise<void> {
  // In id order, the order the callback processor locks recipients in (no 40P01 with a batch).
  const final = outcomes.filter((o): o is Finish => o.status !== "queued").sort((a, b) => (a.id < b.id ? -1 : 1));
  const again = outcomes.filter((o): o is Extract<Outcome, { status: "queued" }> => o.status === "queued");
  if (final.length > 0) {
    await db.$executeRawUnsafe(
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
      db,
      final.map((f) => f.messageId),
    );
  }
  if (again.length > 0) {
    // The provider refused them: nothing reached the contact; queued again after the wait.
    await db.$executeRawUnsafe(
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
function outcomeOf(
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

/** Long enough for a send's every provider attempt, as the other send workers (docs/configuration.md). */
function sendLeaseMs(): number {
  const e = env();
  return MAX_ATTEMPTS * e.PROVIDER_TIMEOUT_MS + e.WORKER_LEASE_MARGIN_MS;
}

const withDefaults = (o: DispatchOptions): Required<DispatchOptions> & { real: boolean } => ({
  real: realClock(o),
  leaseMs: o.leaseMs ?? sendLeaseMs(),
  batchSize: o.batchSize ?? 100,
  now: o.now ?? (() => new Date()),
  customerIds: o.customerIds ?? null,
  housekeeping: o.housekeeping ?? true,
});

/** One pass over every broadcast with work; returns how many provider calls it made. */
export async function dispatchOnce(options: DispatchOptions = {}): Promise<number> {
  return (await dispatchPass(options)).calls;
}

// The open dashboards need a broadcast's counts about once a second, not after every batch
// (a grouped count over all its recipients: at 1,000/s that was ten counts a second).
const PROGRESS_EVERY_MS = 1_000;
const progressAt = new Map<string, number>();

async function dispatchPass(options: DispatchOptions): Promise<PassResult> {
  const o = withDefaults(options);
  if (o.housekeeping) {
    await startDue(o);
    await continueStarting(o.customerIds, o.now, STARTING_BUDGET_MS);
    await resumeDue(o);
    await settleStaleSends(o.customerIds, o.now());
    await sweepCancelled(o.customerIds, o.now());
  }
  const sending = await db.broadcast.findMany({
    where: { status: "SENDING", ...(o.customerIds ? { customerId: { in: o.customerIds } } : {}) },
    orderBy: { updatedAt: "asc" },
    take: 20,
  });
  const out = { calls: 0 };
  for (const b of sending) {
    try {
      const r = await dispatchBatch(b, o);
      out.calls += r.calls;
      const at = Date.now();
      if (r.calls === 0 || at - (progressAt.get(b.id) ?? 0) >= PROGRESS_EVERY_MS) {
        // Without calls it publishes only once the broadcast is no longer SENDING (completed, paused).
        await publishProgress(b, r.calls > 0);
        if (r.calls > 0) progressAt.set(b.id, at);
        else progressAt.delete(b.id);
      }
    } catch (error) {
      log.error({ err: error, broadcastUid: b.id }, "broadcast batch failed");
    }
  }
  return out;
}

/**
 * How long an idle lane sleeps (docs/broadcasts.md "How it sends"): the busy poll while a
 * broadcast is STARTING or SENDING or a cancelled one still has queued recipients; else until
 * the next scheduled start, messaging-limit resume or lease of a recipient left "sending" falls
 * due (one timer), at most the safety poll. Starts, resumes, cancels and retries wake it
 * sooner: the "Broadcast" trigger notifies on every change of state, start or resume time.
 */
async function idleMs(o: Required<DispatchOptions>, pollMs: number, idlePollMs: number): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ busy: boolean; due: number | null }[]>(
    `SELECT EXISTS (SELECT 1 FROM "Broadcast" b WHERE b.status IN ('STARTING', 'SENDING') AND ${SCOPE})
         OR EXISTS (SELECT 1 FROM "Broadcast" b
                     WHERE b.status = 'CANCELLED' AND b."completedAt" > ${UTC(1)} - interval '7 days' AND ${SCOPE}
                       AND EXISTS (SELECT 1 FROM "BroadcastRecipient" r WHERE r."broadcastId" = b.id AND r.status = 'queued')) AS busy,
            extract(epoch FROM LEAST(
              (SELECT min(GREATEST(b."scheduledAt", COALESCE(b."lockedUntil", b."scheduledAt"))) FROM "Broadcast" b
                WHERE b.status = 'SCHEDULED' AND ${SCOPE}),
              (SELECT min(b."resumesAt") FROM "Broadcast" b
                WHERE b.status = 'PAUSED' AND b."pauseReason" = 'messaging_limit' AND ${SCOPE}),
              (SELECT min(r."lockedUntil") FROM "Broadcast" b JOIN "BroadcastRecipient" r ON r."broadcastId" = b.id AND r.status = 'sending'
                WHERE (b.status = 'PAUSED' OR (b.status IN ('CANCELLED', 'COMPLETED') AND b."completedAt" > ${UTC(1)} - interval '1 day'))
                  AND ${SCOPE})
            ) AT TIME ZONE 'UTC')::float8 * 1000 AS due`,
    o.now().toISOString(),
    o.customerIds,
  );
  if (!row || row.busy) return pollMs;
  if (row.due === null) return idlePollMs;
  return Math.min(idlePollMs, Math.max(pollMs, row.due - o.now().getTime()));
}
/** The longest timer Node keeps (a longer one fires at once): "until woken". */
const UNTIL_WOKEN_MS = 2 ** 31 - 1;
const SCOPE = `($2::text[] IS NULL OR b."customerId" = ANY($2::text[]))`;

/**
 * The background loop (lib/background.ts): passes back to back while there is work, a short
 * poll while a broadcast is under way, and otherwise asleep until NOTIFY or the next due time
 * (idleMs), so an idle app spends no CPU on it. `lanes` (default 2) passes run side by side,
 * so one batch is claimed and checked while the calls of another still go at their slots: the
 * pace has no gaps between batches.
 */
export function startBroadcastWorker(
  options: DispatchOptions & {
    /** The poll while a broadcast is starting or sending (default 250 ms). */
    pollMs?: number;
    /** The safety poll while nothing is under way (default WORKER_POLL_MS). */
    idlePollMs?: number;
    lanes?: number;
  } = {},
): {
  stop: () => Promise<void>;
  /** Lanes asleep until woken or the next due time (tests wait for them before they act). */
  idleLanes: () => number;
} {
  const pollMs = options.pollMs ?? 250;
  const idlePollMs = options.idlePollMs ?? env().WORKER_POLL_MS;
  const sleep = wakeableSleep();
  let stopped = false;
  let housekeptAt = 0;
  // A NOTIFY (a start, a resume, a cancel): the next pass does the housekeeping whatever the time.
  let notified = false;
  const unsubscribe = onWakeup("broadcasts", () => {
    notified = true;
    sleep.wake();
  });
  // Lanes asleep for longer than the poll (nothing was under way when they looked).
  let asleep = 0;
  const lane = async (_: unknown, index: number) => {
    while (!stopped) {
      const since = sleep.epoch();
      let result = NOTHING;
      let failed = false;
      try {
        // Scheduled starts, resumes and stale sends once per poll interval, not before every batch.
        const housekeeping = notified || Date.now() - housekeptAt >= pollMs;
        if (housekeeping) {
          housekeptAt = Date.now();
          notified = false;
        }
        result = await dispatchPass({ ...options, housekeeping });
      } catch (error) {
        failed = true;
        log.error({ err: error }, "broadcast worker error");
      }
      if (stopped) break;
      // Calls made: the next batch at once (its calls wait for the sender's next free slots,
      // pacedCalls), and lanes asleep for the idle time join in.
      if (result.calls > 0) {
        if (asleep > 0) sleep.wake();
        await sleep.pause(0);
        continue;
      }
      let ms = pollMs;
      if (!failed) {
        try {
          ms = await idleMs(withDefaults(options), pollMs, idlePollMs);
          // Only the first lane keeps the timer and the safety poll; the others sleep until woken
          // (a NOTIFY, or the first lane's calls), so an idle app pays for one lane's passes.
          if (index > 0 && ms > pollMs) ms = UNTIL_WOKEN_MS;
        } catch (error) {
          log.error({ err: error }, "broadcast worker error");
        }
      }
      if (stopped) break;
      // A wake-up that came during the pass (its write may have committed after the pass read)
      // ends this pause at once (lib/core/wakeable-sleep.ts).
      const long = ms > pollMs;
      if (long) asleep += 1;
      await sleep.pause(ms, since);
      if (long) asleep -= 1;
    }
  };
  const loop = Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 2) }, lane));
  return {
    idleLanes: () => asleep,
    stop: async () => {
      stopped = true;
      unsubscribe();
      sleep.wake();
      await loop;
    },
  };
}
