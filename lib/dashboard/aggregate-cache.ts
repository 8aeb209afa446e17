// The billing explorer's aggregates (totals, cost per day) over the whole filtered set
// read every matching row: with a million records that is ~1 s per request. One
// (customer, sender, filter set) shares its result through the core SWR cache
// (lib/core/swr-cache.ts): fresh for 5 s, then served stale for up to 60 s while one
// background refresh runs.
import { SwrCache } from "@/lib/core/swr-cache";

const aggregates = new SwrCache<unknown>({ ttlMs: 5_000, maxStaleMs: 60_000, maxEntries: 500 });

export function sharedAggregate<T>(key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  return aggregates.get(key, compute, undefined, now) as Promise<T>;
}

/** The identity of a filtered view for the aggregates (paging and sort excluded). */
export function aggregateKey(kind: string, customerId: string, senderId: string | undefined, filters: object): string {
  const { page: _p, limit: _l, sortBy: _s, sortOrder: _o, ...rest } = filters as Record<string, unknown>;
  return JSON.stringify([kind, customerId, senderId ?? null, rest]);
}
