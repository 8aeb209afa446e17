// The broadcast dispatcher (docs/broadcasts.md "How it sends"): one pass starts the scheduled
// broadcasts that are due, makes chunks of STARTING ones' recipients, resumes those whose
// messaging-limit pause ended (lifecycle.ts), settles recipients a dead worker left behind
// (stale-sends.ts), skips cancelled ones' queued recipients in chunks (cancel-sweep.ts), then
// sends a batch of each SENDING broadcast: claim (claiming.ts) -> admit against the messaging
// limit -> the send pipeline's checks -> mark "sending" -> calls at the sender's slots, their
// messages and conversation entries recorded in groups just before them (paced-calls.ts), each
// group's outcomes in one statement once its calls returned -> the recipients' outcomes
// (outcomes.ts) -> complete when nothing is left (lifecycle.ts).
// Several workers and instances run it side by side (the loop: worker.ts):
//   - claims are leased and marked "sending" before the call (claiming.ts), so no two
//     workers hold one recipient and a worker that dies mid-call leaves the row to be settled
//     from its message, never sent twice;
//   - the sender's send slots, the pair rate and the messaging limit are taken for a claim
//     before its calls, and each call is made at its slot, so the provider never has to refuse.

import { log } from "@/lib/core/log";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import type { CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { callRecorded, retryAfterSeconds } from "@/lib/domains/messaging/dispatch";
import { completeMessages } from "@/lib/domains/messaging/message-store";
import { recordMessages } from "@/lib/domains/messaging/send-batch";
import { type CheckedSend, checkSends } from "@/lib/domains/messaging/send-checks";
import { THROUGHPUT_EXCEEDED } from "@/lib/domains/provider/error-codes";
import type { ProviderSender } from "@/lib/domains/provider/types";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { holdSlots } from "@/lib/domains/senders/rate-bucket";
import { senderById } from "@/lib/domains/senders/service";
import { findTemplate } from "@/lib/domains/templates/send-template";
import type { Broadcast, Message, Sender, Template } from "@/lib/generated/prisma/client";
import { sweepCancelled } from "./cancel-sweep";
import { type Claimed, claim, markSending, release, setSkipped, stillSending, unmark } from "./claiming";
import { type DispatchOptions, type Options, withDefaults } from "./dispatch-options";
import { completeIfDone, pauseForService, resumeDue, STARTING_BUDGET_MS, startDue } from "./lifecycle";
import { continueStarting } from "./materialise";
import { admitContacts } from "./messaging-limit";
import { announceBatch, failUnsent, finishAll, type Outcome, outcomeOf, publishLiveBatch } from "./outcomes";
import { CallWithdrawn, pacedCalls, perSecondOf, type RecordCalls, slotTaker, type TakeSlots } from "./paced-calls";
import { sendingBroadcasts } from "./pass-reads";
import { publishProgress } from "./progress";
import { outgoing } from "./recipient-message";
import { senderLimits } from "./sender-limits";
import { settleStaleSends } from "./stale-sends";

/** What a pass did: provider calls made. */
export type PassResult = { calls: number };

/** Refusals of the send pipeline that pause the broadcast (its recipients go back to the queue) rather than fail them. */
const PAUSE_FOR_REFUSAL: Record<string, string> = {
  INSUFFICIENT_BALANCE: "insufficient_balance",
  TEMPLATE_NOT_APPROVED: "template_not_approved",
  TEMPLATE_NOT_FOUND: "template_not_approved",
  SENDER_DISCONNECTED: "sender_disconnected",
};

export const NOTHING: PassResult = { calls: 0 };

/** Sends one batch of a SENDING broadcast: the provider calls it made. */
async function dispatchBatch(b: Broadcast, o: Options): Promise<PassResult> {
  const sender = await senderById(b.senderId);
  if (!sender) throw new Error(`broadcast ${b.id}: sender ${b.senderId} not found`);
  if (sender.connectionStatus === "DISCONNECTED") {
    await pauseForService(b, "sender_disconnected");
    return NOTHING;
  }
  if (sender.connectionStatus === "RECONNECTING") return NOTHING;
  const template = await findTemplate(b.customerId, b.templateName, b.templateLanguage);
  if (template?.status !== "APPROVED") {
    await pauseForService(b, "template_not_approved");
    return NOTHING;
  }
  const limits = senderLimits(sender);
  // A claim is a second's worth of the pace (100 at most), and a worker's other lane claims and
  // checks the next batch while this one's calls still go at their slots (startBroadcastWorker):
  // the pace has no gaps between batches. The slots are taken when the calls are ready (pacedCalls).
  const perSecond = perSecondOf(b, limits);
  const candidates = await claim(b, Math.max(1, Math.min(o.batchSize, perSecond)), o);
  if (candidates.length === 0) {
    await completeIfDone(b, sender, o.now());
    return NOTHING;
  }
  const take = slotTaker(b, sender, limits);
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
    if (pause) await pauseForService(b, pause.reason, pause.resumesAt);
  }
}

/** Checks, marks and sends the admitted recipients of a batch; the provider calls made. */
async function sendAdmitted(
  b: Broadcast,
  template: Template,
  sender: Sender,
  admitted: Claimed[],
  take: TakeSlots,
  o: Options,
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
  return sendMarked(
    b,
    sender,
    p,
    going.map(({ r, i }) => ({ r, send: (verdicts[i] as Extract<(typeof verdicts)[number], { ok: true }>).send })),
    take,
    o,
  );
}

/** A group of a batch's calls recorded in one statement: its outcomes are written together once its calls have all returned. */
type Group = { left: number; made: Made[] };
type Made = { r: Claimed; message: Message; call: Awaited<ReturnType<typeof callRecorded>> };

/**
 * Records the marked sends of a batch, makes their calls at their slots, writes their outcomes:
 * the provider calls made. The messages of the calls whose slots fall within the next 100 ms
 * are written with their conversation entries in one statement just before them (paced-calls.ts,
 * send-batch.ts recordMessages), never the whole batch ahead of its calls; each such group's
 * outcomes (the provider's ids) are one statement as soon as its calls have all returned, so a
 * status callback finds its message about as soon as after a single send, and a worker killed
 * leaves "sending" only the groups whose calls had not all returned. The recipients' outcomes,
 * the accepted events and the live notices are one statement each for the batch. A withdrawn
 * call was never recorded: its recipient goes back to the queue (or skipped, cancelled),
 * nothing else of it is left. A worker that dies before the recipients' outcomes leaves them
 * "sending": settled from their messages (stale-sends.ts): no message, queued again; a message
 * with an outcome, that outcome; one without, interrupted (never sent twice).
 */
async function sendMarked(
  b: Broadcast,
  sender: Sender,
  p: Principal,
  going: { r: Claimed; send: CheckedSend }[],
  take: TakeSlots,
  o: Options,
): Promise<number> {
  const outcomes: Outcome[] = [];
  const accepted: { message: Message; sender: ProviderSender }[] = [];
  const live: LiveEvent[] = [];
  const created: CreatedConversation[] = [];
  const sentBy = going[0]?.send.out.sentBy ?? { by: "api", notAReply: true };
  const messages = new Map<number, { message: Message; group: Group }>();
  const record: RecordCalls = async (indices) => {
    const rows = await recordMessages(
      p,
      sender,
      sentBy,
      indices.map((k) => (going[k] as { send: CheckedSend }).send),
      live,
      created,
    );
    const ids = new Map(rows.map((m) => [m.id, m]));
    const group: Group = { left: 0, made: [] };
    const done = new Set<number>();
    for (const k of indices) {
      const message = ids.get(going[k]?.send.out.messageId ?? "");
      if (message) {
        messages.set(k, { message, group });
        group.left += 1;
        done.add(k);
      }
    }
    await o.afterRecord?.(rows.map((m) => m.id));
    return done;
  };
  const paced = pacedCalls(
    sender,
    going.length,
    take,
    () => stillSending(b.id),
    o,
    { key: `broadcast:${b.id}`, perSecond: b.maxPerSecond },
    record,
  );
  const provider = providerSender(sender);
  const withdrawn: bigint[] = [];
  const made: Made[] = [];
  await Promise.all(
    going.map(async ({ r, send }, k) => {
      const slot = paced.call(k);
      const messageId = send.out.messageId ?? "";
      try {
        await slot.beforeCall();
      } catch (error) {
        if (error instanceof CallWithdrawn) {
          withdrawn.push(r.id);
          return;
        }
        // Its message could not be recorded (or whether it was is not known): never called,
        // interrupted as before (stale-sends.ts queues it again once it finds no message row).
        log.error({ err: error, broadcastUid: b.id }, "broadcast send not recorded");
        outcomes.push({ id: r.id, messageId, status: "interrupted", errorCode: null, errorMessage: "internal error" });
        return;
      }
      // Every recorded message is called (callRecorded never throws): its group's count comes down.
      const { message, group } = messages.get(k) as { message: Message; group: Group };
      const call = await callRecorded(message, provider, { atCall: slot.atCall, throughputRetries: false });
      group.made.push({ r, message, call });
      group.left -= 1;
      if (group.left > 0) return;
      // The group's last call returned: its outcomes in one statement (never throws: retried, then reconciled).
      const done = await completeMessages(
        group.made.map((m) => ({ row: m.message, c: m.call.columns })),
        live,
      );
      group.made.forEach((m, i) => {
        made.push({ ...m, message: done[i] as Message });
      });
    }),
  );
  // The provider refused for throughput all the same: no slot of the sender before its Retry-After.
  let holdUntil = 0;
  for (const { r, message, call } of made) {
    if (!call.result) {
      // Whether the provider got it is not known ("unknown"): interrupted, never resent.
      log.error({ err: call.error, broadcastUid: b.id }, "broadcast send ended unexpectedly");
    }
    if (message.status === "accepted") accepted.push({ message, sender: provider });
    const refusal = call.result && !call.result.ok ? call.result.refusal : null;
    const outcome = outcomeOf(r, message.id, message, refusal ? retryAfterSeconds(refusal) : undefined);
    if (outcome.status === "queued" && message.errorCode === THROUGHPUT_EXCEEDED)
      holdUntil = Math.max(holdUntil, outcome.notBefore.getTime());
    outcomes.push(outcome);
  }
  if (holdUntil > 0) await holdSlots(sender.id, holdUntil);
  await unmark(withdrawn);
  await finishAll(outcomes);
  await announceBatch(accepted, created);
  await publishLiveBatch(b.customerId, live);
  return made.length;
}

/** One pass over every broadcast with work; returns how many provider calls it made. */
export async function dispatchOnce(options: DispatchOptions = {}): Promise<number> {
  return (await dispatchPass(options)).calls;
}

// The open dashboards need a broadcast's counts about once a second, not after every batch
// (a grouped count over all its recipients: at 1,000/s that was ten counts a second).
const PROGRESS_EVERY_MS = 1_000;
const progressAt = new Map<string, number>();

/** One pass (the worker's lanes run them back to back): the housekeeping when asked, then a batch of each SENDING broadcast. */
export async function dispatchPass(options: DispatchOptions): Promise<PassResult> {
  const o = withDefaults(options);
  if (o.housekeeping) {
    await startDue(o);
    await continueStarting(o.customerIds, o.now, STARTING_BUDGET_MS);
    await resumeDue(o);
    await settleStaleSends(o.customerIds, o.now());
    await sweepCancelled(o.customerIds, o.now());
  }
  const sending = await sendingBroadcasts(o.customerIds);
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
