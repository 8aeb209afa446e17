// Exact row counts for billing lists, shared for a few seconds (lib/core/swr-cache.ts).
//
// Why: the contract's pagination carries total and totalPages, and an exact COUNT(*)
// over a customer with a million records reads a million rows (~100-300 ms here): per
// request it would dominate the list's latency. The list service asks for a count only
// when the page alone cannot tell the total (a full page, or an empty page past the
// first). A reused count is checked against the page just read (`plausible`) and
// recounted when it cannot be right, so a total is never smaller than the rows a client
// has been given.
import { SwrCache } from "@/lib/core/swr-cache";

const DEFAULTS = { ttlMs: 5_000, maxStaleMs: 60_000, maxEntries: 2_000 };
const counts = new SwrCache<number>(DEFAULTS);

/** Benchmarks and tests: ttlMs 0 disables sharing (every call counts). */
export function configureCountCache(options: { ttlMs: number; maxStaleMs?: number }): void {
  counts.configure({ ...DEFAULTS, maxStaleMs: Math.max(options.ttlMs, DEFAULTS.maxStaleMs), ...options });
}

/** The shared exact count for key; `plausible` rejects a value the caller knows is wrong. */
export const cachedCount = (key: string, count: () => Promise<number>, plausible?: (value: number) => boolean) =>
  counts.get(key, count, plausible);
