// The billing explorer's aggregates (totals, cost per day) over the whole filtered set
// read every matching row: with a million records that is ~1 s per request. As the
// billing list does for its count (lib/billing/count-cache.ts), one (customer, sender,
// filter set) shares its result: fresh for 5 s, then served stale for up to 60 s while
// one background refresh runs; missing or older: computed now, once for concurrent callers.
const TTL_MS = 5_000;
const MAX_STALE_MS = 60_000;
const MAX_ENTRIES = 500;

type Entry = { value?: unknown; at: number; pending?: Promise<unknown> };
const entries = new Map<string, Entry>();

function refresh<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const pending = compute();
  const previous = entries.get(key);
  if (entries.size >= MAX_ENTRIES && !previous) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  const startedAt = Date.now();
  entries.set(key, { value: previous?.value, at: previous?.at ?? 0, pending });
  pending.then(
    (value) => {
      entries.delete(key);
      entries.set(key, { value, at: startedAt });
    },
    () => {
      const e = entries.get(key);
      if (e) e.pending = undefined;
    },
  );
  return pending;
}

export function sharedAggregate<T>(key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  const e = entries.get(key);
  if (e?.value !== undefined) {
    const age = now - e.at;
    if (age < TTL_MS) return Promise.resolve(e.value as T);
    if (age < MAX_STALE_MS) {
      if (!e.pending) refresh(key, compute).catch(() => {});
      return Promise.resolve(e.value as T);
    }
  }
  if (e?.pending) return e.pending as Promise<T>;
  return refresh(key, compute);
}

/** The identity of a filtered view for the aggregates (paging and sort excluded). */
export function aggregateKey(kind: string, customerId: string, senderId: string | undefined, filters: object): string {
  const { page: _p, limit: _l, sortBy: _s, sortOrder: _o, ...rest } = filters as Record<string, unknown>;
  return JSON.stringify([kind, customerId, senderId ?? null, rest]);
}
