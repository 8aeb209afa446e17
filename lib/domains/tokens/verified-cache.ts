// The verified-token cache's logic (docs/tokens.md "Verified-token cache"), free of the
// database and of LISTEN so it can be tested alone; lib/domains/tokens/token-cache.ts wires it.
//
// Bounded LRU on a Map (insertion order: a hit moves the entry to the newest end, the
// oldest is evicted past `maxEntries`). No library: the only LRU in node_modules is
// lru-cache 6 (a transitive dependency, unmaintained line); what we need is these few lines,
// and adding a current one would change the lock file for nothing it does better here.
import { performance } from "node:perf_hooks";

export type VerifiedCacheOptions = {
  maxEntries: number;
  /** A safety net: an entry older than this is looked up again even if no change was notified. */
  maxAgeMs: number;
  /** False while changes might not reach us (the LISTEN connection is down): no hit, no store. */
  live: () => boolean;
  /** Monotonic milliseconds (wall-clock jumps and faked Dates do not age entries). */
  clock?: () => number;
};

type Entry<V> = { value: V; storedAt: number };

/** What a look-up started under: `store` only accepts it if nothing was invalidated since. */
export type Ticket = number | undefined;

export class VerifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;
  private readonly clock: () => number;
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(private readonly options: VerifiedCacheOptions) {
    this.clock = options.clock ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Take before the database look-up and pass to store() after it. A look-up that read a
   * row before a change committed returns after that change's invalidation; the generation
   * it was started under no longer matches and its result is not kept.
   */
  ticket(): Ticket {
    return this.options.live() ? this.generation : undefined;
  }

  get(key: string): V | undefined {
    if (!this.options.live()) {
      if (this.entries.size > 0) this.invalidateAll();
      this.stats.misses++;
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry || this.clock() - entry.storedAt >= this.options.maxAgeMs) {
      if (entry) this.entries.delete(key);
      this.stats.misses++;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.hits++;
    return entry.value;
  }

  store(key: string, value: V, ticket: Ticket): void {
    if (ticket === undefined || ticket !== this.generation || !this.options.live()) return;
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: this.clock() });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets everything and refuses results of look-ups already under way. */
  invalidateAll(): void {
    this.generation++;
    this.stats.invalidations++;
    this.entries.clear();
  }
}
