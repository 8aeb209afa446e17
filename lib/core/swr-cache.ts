// One stale-while-revalidate cache for every expensive read that many requests share
// (billing counts, dashboard aggregates, balances and rates before a send). A key's value:
// - fresh (younger than ttlMs): reused as is;
// - stale but younger than maxStaleMs: reused, and one background refresh starts;
// - missing or too old: loaded now, once for all concurrent callers (single flight).
// A caller that knows a value cannot be right (`plausible`) gets a fresh load instead.
// Entries are per process; the oldest entry goes when maxEntries is reached.

export type SwrOptions = {
  /** How long a value is served without a refresh; 0 disables caching (every call loads). */
  ttlMs: number;
  /** How long a value may be served while one background refresh runs (>= ttlMs). */
  maxStaleMs?: number;
  maxEntries?: number;
};

type Entry<T> = { value?: T; at: number; pending?: Promise<T> };

export class SwrCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private ttlMs = 0;
  private maxStaleMs = 0;
  private maxEntries = 1_000;

  constructor(options: SwrOptions) {
    this.configure(options);
  }

  /** Tests and benchmarks retune a cache; the entries are dropped. */
  configure(options: SwrOptions): void {
    this.ttlMs = options.ttlMs;
    this.maxStaleMs = Math.max(options.maxStaleMs ?? options.ttlMs, options.ttlMs);
    this.maxEntries = options.maxEntries ?? this.maxEntries;
    this.entries.clear();
  }

  /** The shared value of key (see above). `now` lets tests move the clock. */
  async get(
    key: string,
    load: () => Promise<T>,
    plausible: (value: T) => boolean = () => true,
    now = Date.now(),
  ): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit?.value !== undefined && plausible(hit.value)) {
      const age = now - hit.at;
      if (age < this.ttlMs) return hit.value;
      if (age < this.maxStaleMs) {
        if (!hit.pending) this.refresh(key, load).catch(() => {});
        return hit.value;
      }
    }
    if (hit?.pending) {
      const value = await hit.pending.catch(() => undefined);
      if (value !== undefined && plausible(value)) return value;
    }
    return this.refresh(key, load);
  }

  /** Stores a value read elsewhere (e.g. a fresh balance read past the cache). */
  set(key: string, value: T, now = Date.now()): void {
    this.evictFor(key);
    this.entries.set(key, { value, at: now });
  }

  private evictFor(key: string): void {
    if (this.entries.size < this.maxEntries || this.entries.has(key)) return;
    const oldest = this.entries.keys().next().value; // a Map keeps insertion order
    if (oldest !== undefined) this.entries.delete(oldest);
  }

  private refresh(key: string, load: () => Promise<T>): Promise<T> {
    const previous = this.entries.get(key);
    const pending = load();
    this.evictFor(key);
    const startedAt = Date.now();
    this.entries.set(key, { value: previous?.value, at: previous?.at ?? 0, pending });
    pending.then(
      (value) => {
        this.entries.delete(key);
        this.entries.set(key, { value, at: startedAt });
      },
      () => {
        // Keep the previous value (if any); the next caller retries.
        this.entries.set(key, { value: previous?.value, at: previous?.at ?? 0 });
      },
    );
    return pending;
  }
}
