// The pure rules of the per-sender pacer (docs/broadcasts.md "Throughput"); the stores
// (rate-bucket.ts in PostgreSQL, rate-bucket-redis.ts in Redis) apply reserve() atomically.
// A sender's sends are spaced on one timeline: the store keeps `nextAt`, the time of the
// sender's next free slot, and a take of n calls gets n slots `spacingMs` apart from
// max(nextAt, now), never further ahead than AHEAD_MS. Calls made at their slots are at least
// `spacingMs` apart whoever made them, so no 1,000 ms (a sliding second, as the provider may
// count: docs/api/limits.md "What the simulator enforces", no burst) holds more than the
// throughput, and the pace is even (no clock second's tokens spent at its start).
import { SlidingWindow } from "@/lib/domains/provider/sliding-window";

/** The window the provider counts a number's throughput in. */
export const PACE_WINDOW_MS = 1_000;
/**
 * How far ahead of now a take may reserve slots: two batches of a second's calls (a worker's
 * two lanes), so the next batch's slots are taken while this one's calls still go.
 */
export const AHEAD_MS = 2_000;
/**
 * Slots are this much wider than 1,000 ms / throughput (2%: 80/s paces at 78.4/s): a call
 * made a little late (a timer, a busy event loop) still leaves the throughput's worth of
 * calls a full window apart; within a process, LocalWindows holds a late call back.
 */
export const SPACING_MARGIN = 0.02;
/** The part of a sender's throughput a broadcast may take while other sends were seen (the inbox is never starved). */
export const BROADCAST_SHARE = 0.8;
/** How long another send of the sender counts as "seen" for the broadcasts' share. */
export const OTHERS_SEEN_MS = 2_000;
/**
 * When a take moves from one store to the other (Redis failed, or came back), the new store's
 * first slot is at least this far ahead: past every slot the old store can have handed out
 * (at most AHEAD_MS ahead), and one full window more.
 */
export const SWITCH_GUARD_MS = AHEAD_MS + PACE_WINDOW_MS;

/** Milliseconds between two calls of a sender paced at `perSecond` (a broadcast: its share while others are seen). */
export function spacingMs(perSecond: number, share = 1): number {
  return (PACE_WINDOW_MS * (1 + SPACING_MARGIN)) / Math.max(1e-6, perSecond * share);
}

export type Reservation = {
  /** Slots granted (0: none before now + AHEAD_MS; take again at `retryAt`). */
  granted: number;
  /** The first slot's time; slot i is at firstAt + i * spacingMs. */
  firstAt: number;
  spacingMs: number;
  /** The store's next free slot after the take. */
  nextAt: number;
  /** When a take that got nothing may have a slot (ms since the epoch). */
  retryAt: number;
};

/**
 * Reserves up to `want` slots of a timeline whose next free slot is `nextAt` (0: never used).
 * `floor`: no slot before it (a store taking over from the other, a provider's Retry-After).
 */
export function reserve(nextAt: number, now: number, want: number, spacing: number, floor = 0): Reservation {
  const base = Math.max(nextAt, floor);
  const firstAt = Math.max(base, now);
  const room = Math.ceil((now + AHEAD_MS - firstAt) / spacing);
  const granted = Math.max(0, Math.min(want, room));
  return {
    granted,
    firstAt,
    spacingMs: spacing,
    nextAt: granted > 0 ? firstAt + granted * spacing : base,
    retryAt: Math.max(now, firstAt - AHEAD_MS + 1),
  };
}

/** Another send (not a broadcast's): made at once, never held back, and its slot counted. */
export function countOther(nextAt: number, now: number, spacing: number): number {
  return Math.max(nextAt, now) + spacing;
}

/**
 * The process's own guard counts a window 2% longer than the provider's second (the slots'
 * SPACING_MARGIN): a call reaches the provider some milliseconds after it leaves, not always the
 * same number, so a call exactly 1,000 ms after the one `limit` calls back could land in the same
 * provider second as it (bench:broadcast (a) saw 81 in one sliding second, one refused with 130429).
 * It holds while that variation stays under 20 ms.
 */
const GUARD_WINDOW_MS = PACE_WINDOW_MS * (1 + SPACING_MARGIN);

/**
 * The process's own count of its calls per key (a sender, or a broadcast with its own
 * maxPerSecond) in any GUARD_WINDOW_MS: the last guard before a call, so a call that came late
 * to its slot cannot bunch with the calls after it.
 */
export class LocalWindows {
  private readonly windows = new Map<string, SlidingWindow>();

  /** Milliseconds to wait before another call of `key` keeps its window at `limit` (0: call now). */
  waitMs(key: string, limit: number, now: number): number {
    const w = this.windows.get(key);
    if (!w || w.count(now) < limit) return 0;
    return Math.max(1, w.msUntilOldestLeaves(now));
  }

  record(key: string, at: number): void {
    let w = this.windows.get(key);
    if (!w) {
      w = new SlidingWindow(GUARD_WINDOW_MS);
      this.windows.set(key, w);
    }
    w.add(at);
    if (this.windows.size > 10_000) {
      for (const [k, x] of this.windows) if (x.count(at) === 0) this.windows.delete(k);
    }
  }
}
