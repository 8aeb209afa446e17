// A broadcast's calls held to the sender's send slots (docs/broadcasts.md "Throughput"). The
// sender's timeline is lib/domains/senders/rate-bucket.ts (no 1,000 ms holds more than its
// throughput; the broadcast's maxPerSecond spaces its own slots wider; the rules in
// lib/domains/senders/pacing.ts); here a batch takes its slots and makes each call at its
// own, so the provider never has to refuse; a 130429 it sends all the same holds the
// sender's slots for its Retry-After (the dispatcher's holdSlots), never retried inside the window.
import { type Reservation, spacingMs } from "@/lib/domains/senders/pacing";
import { localWindows, takeSlots } from "@/lib/domains/senders/rate-bucket";
import type { Broadcast, Sender } from "@/lib/generated/prisma/client";
import { type SenderLimits, senderLimits } from "./sender-limits";

/** Takes `want` of the sender's send slots from `at` (epoch ms). */
export type TakeSlots = (at: number, want: number) => Promise<Reservation>;

/** A second's worth of the broadcast's pace (a claim's size): the sender's throughput, or its maxPerSecond when lower. */
export const perSecondOf = (b: Pick<Broadcast, "maxPerSecond">, limits: SenderLimits): number =>
  Math.min(limits.throughputPerSecond, b.maxPerSecond ?? limits.throughputPerSecond);

/** The broadcast's take of the sender's slots: the sender's throughput, its own maxPerSecond spacing its slots wider. */
export const slotTaker =
  (b: Pick<Broadcast, "maxPerSecond">, sender: Pick<Sender, "id">, limits: SenderLimits): TakeSlots =>
  (at, want) =>
    takeSlots(sender.id, want, {
      perSecond: limits.throughputPerSecond,
      broadcast: true,
      minSpacingMs: b.maxPerSecond ? spacingMs(b.maxPerSecond) : 0,
      now: at,
    });

/** A call the dispatcher withdrew before anything was recorded: its broadcast stopped meanwhile. */
export class CallWithdrawn extends Error {}

/**
 * How far ahead of its slot a call's message may be recorded, at most (the record's own way to
 * the database): the calls whose slots fall within it are recorded together, in one statement.
 */
const RECORD_LEAD_MS = 100;
/** How long before the first slot of a group its messages are recorded: the group spans the rest of RECORD_LEAD_MS. */
const RECORD_AHEAD_MS = 20;
/** How often the calls waiting for their slots read their broadcast's state again. */
const STATE_CHECK_MS = 250;

const sleepMs = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** Records the messages of the batch's calls `indices` (one statement): the indices recorded. */
export type RecordCalls = (indices: number[]) => Promise<Set<number>>;

/**
 * Holds each call of a batch to a send slot of the sender (lib/domains/senders/pacing.ts) and
 * records the calls' messages in groups, just before their slots. The slots are taken when the
 * calls are ready, not at the claim (the batch's checks and marks take their time): the first
 * call's beforeCall takes the slots of every call still to come in one take, RECORD_LEAD_MS
 * ahead, and more when a take was short (waiting for them). beforeCall gives its call a slot,
 * waits until RECORD_AHEAD_MS before it and resolves once its message is recorded: the first
 * call of a group to wake records, in one statement (`record`), every call whose slot falls
 * within RECORD_LEAD_MS of then, so no message is recorded more than RECORD_LEAD_MS before its
 * slot (a worker killed meanwhile strands no more than that, docs/broadcasts.md "Crashes"). Before a
 * group is recorded its broadcast's state is read again (at most every 250 ms): once it stopped,
 * every call not recorded yet is withdrawn (CallWithdrawn), leaving nothing behind; the calls
 * already recorded are made. atCall (right before each provider call) waits for the slot itself
 * (a retry takes another) and lets no call make this process's calls of the sender in any 1,020
 * ms more than its throughput, nor the broadcast's calls in any 1,020 ms more than its
 * maxPerSecond (1,000 ms and a 2% margin for the way to the provider: pacing.ts GUARD_WINDOW_MS):
 * a call that came late to its slot (a busy moment) waits rather than bunch with the next ones. (Between processes the slots' 2% margin leaves room for a call a little
 * late: pacing.ts SPACING_MARGIN.) With a test's clock (options.now) no slots are taken and the
 * batch's calls are recorded as one group.
 */
export function pacedCalls(
  sender: Sender,
  calls: number,
  take: TakeSlots,
  stillSending: () => Promise<boolean>,
  o: { real: boolean },
  own: { key: string; perSecond: number | null },
  record: RecordCalls,
): { call: (index: number) => { beforeCall: () => Promise<void>; atCall: () => Promise<void> } } {
  let slots: Reservation | null = null;
  let used = 0;
  let left = calls;
  let taking: Promise<void> | null = null;
  let checkedAt = Date.now();
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
  // The calls waiting to be recorded (index -> slot; -Infinity with a test's clock), and what
  // recording did for each: true (recorded) or the error its call fails with.
  const waiting = new Map<number, number>();
  const recorded = new Map<number, true | Error>();
  let stopped = false;
  let recording: Promise<void> | null = null;
  const recordDue = async () => {
    // The calls started in the same tick (a test's clock: the whole batch) register first.
    await null;
    const horizon = Date.now() + RECORD_LEAD_MS;
    const due = [...waiting].filter(([, at]) => at <= horizon).map(([i]) => i);
    for (const i of due) waiting.delete(i);
    try {
      if (Date.now() - checkedAt >= STATE_CHECK_MS) {
        const going = await stillSending();
        checkedAt = Date.now();
        if (!going) stopped = true;
      }
      if (stopped) {
        for (const i of due) recorded.set(i, new CallWithdrawn("the broadcast is no longer sending"));
        return;
      }
      const done = due.length > 0 ? await record(due) : new Set<number>();
      for (const i of due) recorded.set(i, done.has(i) ? true : new Error("the message was not recorded"));
    } catch (error) {
      for (const i of due) recorded.set(i, error instanceof Error ? error : new Error(String(error)));
    }
  };
  const untilRecorded = async (index: number): Promise<void> => {
    for (;;) {
      const done = recorded.get(index);
      if (done === true) return;
      if (done) throw done;
      if (stopped) throw new CallWithdrawn("the broadcast is no longer sending");
      recording ??= recordDue().finally(() => {
        recording = null;
      });
      await recording;
    }
  };
  return {
    call(index) {
      let slot: number | null = null;
      return {
        async beforeCall() {
          // A test's clock takes no slots: they would stand in the sender's timeline at its time.
          // Registered before any wait: the batch's calls are then one group.
          if (!o.real) waiting.set(index, Number.NEGATIVE_INFINITY);
          else {
            slot = await nextSlot();
            waiting.set(index, slot);
            await sleepMs(slot - RECORD_AHEAD_MS - Date.now());
          }
          await untilRecorded(index);
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
