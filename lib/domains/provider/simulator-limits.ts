// The provider limits the simulator enforces (docs/api/limits.md "What the simulator enforces"),
// so a test or the demo shows the service staying inside them:
// - throughput per business number (fixed one-second windows) -> 130429 with a Retry-After;
// - the pair rate to one user: a burst of 45 messages within 6 seconds (the provider's
//   allowance for a conversation), and a second marketing template to one user within 6
//   seconds (what a broadcast must space) -> 131056;
// - the messaging limit of the business account: unique contacts reached outside an open
//   window per rolling 24 hours -> the send is accepted and then fails with 131048.
export const PAIR_WINDOW_MS = 6_000;
export const PAIR_BURST = 45;
const DAY_MS = 24 * 60 * 60 * 1000;

export type LimitVerdict = "ok" | "throughput" | "pair";

export class SimulatorLimits {
  private readonly perSecond = new Map<string, { second: number; count: number }>();
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

  /** Seconds until the number's next one-second window (the Retry-After of a 130429). */
  retryAfterSeconds(now = this.clock()): number {
    return Math.max(1, Math.ceil((1000 - (now % 1000)) / 1000));
  }

  /** Counts one message when it is allowed; otherwise says which limit refused it. */
  check(
    phoneNumberId: string,
    recipient: string,
    options: { marketing?: boolean; throughput?: number } = {},
    now = this.clock(),
  ): LimitVerdict {
    const second = Math.floor(now / 1000);
    const window = this.perSecond.get(phoneNumberId);
    const used = window && window.second === second ? window.count : 0;
    if (used >= this.throughputOf(phoneNumberId, options.throughput)) return "throughput";
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
    this.perSecond.set(phoneNumberId, { second, count: used + 1 });
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
