// The provider limits the simulator enforces (docs/api/limits.md "Provider limits"): messages per second per business
// number (fixed one-second windows) and the pair rate to one user (a burst of 45 within
// 6 seconds).
export const PAIR_WINDOW_MS = 6_000;
export const PAIR_BURST = 45;

export type LimitVerdict = "ok" | "throughput" | "pair";

export class SimulatorLimits {
  private readonly perSecond = new Map<string, { second: number; count: number }>();
  private readonly pairs = new Map<string, number[]>();
  private readonly overrides = new Map<string, number>();
  private clock: () => number = Date.now;

  constructor(private defaultThroughput: number) {}

  setThroughput(phoneNumberId: string, perSecond: number | undefined): void {
    if (perSecond === undefined) this.overrides.delete(phoneNumberId);
    else this.overrides.set(phoneNumberId, perSecond);
  }

  setDefaultThroughput(perSecond: number): void {
    this.defaultThroughput = perSecond;
  }

  /** The clock the windows are counted on (a test holds it still: its sends share one second). */
  useClock(clock: () => number = Date.now): void {
    this.clock = clock;
  }

  /** Counts one message when it is allowed; otherwise says which limit refused it. */
  check(phoneNumberId: string, recipient: string, now = this.clock()): LimitVerdict {
    const second = Math.floor(now / 1000);
    const window = this.perSecond.get(phoneNumberId);
    const used = window && window.second === second ? window.count : 0;
    if (used >= (this.overrides.get(phoneNumberId) ?? this.defaultThroughput)) return "throughput";
    const key = `${phoneNumberId}|${recipient}`;
    const recent = (this.pairs.get(key) ?? []).filter((t) => now - t < PAIR_WINDOW_MS);
    if (recent.length >= PAIR_BURST) {
      this.pairs.set(key, recent);
      return "pair";
    }
    recent.push(now);
    this.pairs.set(key, recent);
    this.perSecond.set(phoneNumberId, { second, count: used + 1 });
    if (this.pairs.size > 50_000) this.prune(now);
    return "ok";
  }

  private prune(now: number): void {
    for (const [key, times] of this.pairs) {
      if (times.every((t) => now - t >= PAIR_WINDOW_MS)) this.pairs.delete(key);
    }
  }
}
