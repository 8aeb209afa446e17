// The provider limits the simulator enforces (docs/api/limits.md "What the simulator enforces"),
// so a test or the demo shows the service staying inside them:
// - throughput per business number: messages accepted in any 1,000 ms (a sliding window, as a
//   provider may count; no burst above it) -> 130429 with a Retry-After;
// - the pair rate to one user: a burst of 45 messages within 6 seconds (the provider's
//   allowance for a conversation), and a second marketing template to one user within 6
//   seconds (what a broadcast must space) -> 131056;
// - the messaging limit of the business account: unique contacts reached outside an open
//   window per rolling 24 hours -> the send is accepted and then fails with 131048.
import { SlidingWindow } from "./sliding-window";

/**
 * Messages a number may send above its throughput in any 1,000 ms: none. The pacing check of
 * bench:broadcast allows the throughput plus this burst (docs/api/limits.md).
 */
export const THROUGHPUT_BURST = 0;
export const PAIR_WINDOW_MS = 6_000;
export const PAIR_BURST = 45;
const DAY_MS = 24 * 60 * 60 * 1000;

export type LimitVerdict = "ok" | "throughput" | "pair";

export class SimulatorLimits {
  /** Per phone number id: the messages it had accepted in the last 1,000 ms. */
  private readonly accepted = new Map<string, SlidingWindow>();
  private readonly pairs = new Map<string, number[]>();
  private readonly templatePairs = new Map<string, number>();
  private readonly overrides = new Map<string, number>();
  /** Per business account: contact -> when it was last counted against the messaging limit. */
  private readonly reached = new Map<string, Map<string, number>>();
  private clock: () => number = Date.now;

  constructor(private defaultThroughput: number) {}

  setThroughput(phoneNumberId: string, perSecond: number | undefined): void {
    if (perSecond === undefined) this.overrides.delete(phoneNumberId);
    else this.overrides.set(phoneNumberId, perSecond);
  }

  setDefaultThroughput(perSecond: number): void {
    this.defaultThroughput = perSecond;
  }

  /** The clock the windows are counted on (a test holds it still, or moves it a day ahead). */
  useClock(clock: () => number = Date.now): void {
    this.clock = clock;
  }

  now(): number {
    return this.clock();
  }

  /**
   * A number's messages per second: a test's override, else the number's own throughput
   * (an upgraded number's, as the service learned it) but never below the simulator's default.
   */
  throughputOf(phoneNumberId: string, numberThroughput?: number): number {
    return this.overrides.get(phoneNumberId) ?? Math.max(this.defaultThroughput, numberThroughput ?? 0);
  }

  /** Seconds until the number's oldest message in the window leaves it (the Retry-After of a 130429). */
  retryAfterSeconds(phoneNumberId: string, now = this.clock()): number {
    const ms = this.accepted.get(phoneNumberId)?.msUntilOldestLeaves(now) ?? 0;
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /** Counts one message when it is allowed; otherwise says which limit refused it. */
  check(
    phoneNumberId: string,
    recipient: string,
    options: { marketing?: boolean; throughput?: number } = {},
    now = this.clock(),
  ): LimitVerdict {
    let window = this.accepted.get(phoneNumberId);
    if (!window) {
      window = new SlidingWindow(1_000);
      this.accepted.set(phoneNumberId, window);
    }
    if (window.count(now) >= this.throughputOf(phoneNumberId, options.throughput) + THROUGHPUT_BURST)
      return "throughput";
    const key = `${phoneNumberId}|${recipient}`;
    const recent = (this.pairs.get(key) ?? []).filter((t) => now - t < PAIR_WINDOW_MS);
    if (recent.length >= PAIR_BURST) {
      this.pairs.set(key, recent);
      return "pair";
    }
    const lastMarketing = this.templatePairs.get(key);
    if (options.marketing && lastMarketing !== undefined && now - lastMarketing < PAIR_WINDOW_MS) return "pair";
    recent.push(now);
    this.pairs.set(key, recent);
    if (options.marketing) this.templatePairs.set(key, now);
    window.add(now);
    if (this.pairs.size > 50_000 || this.templatePairs.size > 50_000) this.prune(now);
    return "ok";
  }

  /** Whether the contact already counts against the account's messaging limit (within 24 hours). */
  counted(account: string, contact: string, now = this.clock()): boolean {
    const at = this.reached.get(account)?.get(contact);
    return at !== undefined && now - at < DAY_MS;
  }

  /**
   * Counts a contact reached outside an open window against the account's limit (null =
   * unlimited). False when it would be one contact too many: the provider's 131048.
   */
  reach(account: string, contact: string, limit: number | null, now = this.clock()): boolean {
    if (limit === null) return true;
    let contacts = this.reached.get(account);
    if (!contacts) {
      contacts = new Map();
      this.reached.set(account, contacts);
    }
    // The map is kept in the order contacts were last reached, so the ones that left the
    // 24 hours are at its front.
    for (const [c, at] of contacts) {
      if (now - at < DAY_MS) break;
      contacts.delete(c);
    }
    const known = contacts.has(contact);
    if (!known && contacts.size >= limit) return false;
    contacts.delete(contact);
    contacts.set(contact, now);
    return true;
  }

  private prune(now: number): void {
    for (const [key, times] of this.pairs) {
      if (times.every((t) => now - t >= PAIR_WINDOW_MS)) this.pairs.delete(key);
    }
    for (const [key, at] of this.templatePairs) if (now - at >= PAIR_WINDOW_MS) this.templatePairs.delete(key);
  }
}
