// Exact row counts for billing lists, shared for a few seconds.
//
// Why: the contract's pagination carries total and totalPages, and an exact COUNT(*)
// over a customer with a million records reads a million rows (~100-300 ms here): per
// request it would dominate the list's latency. The list service asks for a count only
// when the page alone cannot tell the total (a full page, or an empty page past the
// first). The count of one (customer, filter set) is then shared:
// - fresh (younger than ttlMs): reused as is;
// - stale but younger than maxStaleMs: reused, and one background recount starts
//   (stale-while-revalidate), so no request waits for a slow count after the first;
// - missing or too old: counted now, once for all concurrent callers (single flight).
// A reused count is checked against the page just read (`plausible`) and recounted when
// it cannot be right, so a total is never smaller than the rows a client has been given.
const DEFAULT_TTL_MS = 5_000;
const DEFAULT_MAX_STALE_MS = 60_000;
const MAX_ENTRIES = 2_000;

type Entry = { value?: number; at: number; pending?: Promise<number> };

const entries = new Map<string, Entry>();
let ttlMs = DEFAULT_TTL_MS;
let maxStaleMs = DEFAULT_MAX_STALE_MS;

/** Benchmarks and tests: ttlMs 0 disables sharing (every call counts). */
export function configureCountCache(options: { ttlMs: number; maxStaleMs?: number }): void {
  ttlMs = options.ttlMs;
  maxStaleMs = options.maxStaleMs ?? Math.max(ttlMs, DEFAULT_MAX_STALE_MS);
  entries.clear();
}

function refresh(key: string, count: () => Promise<number>, previous?: number): Promise<number> {
  const pending = count();
  if (entries.size >= MAX_ENTRIES && !entries.has(key)) {
    const oldest = entries.keys().next().value; // Map keeps insertion order
    if (oldest !== undefined) entries.delete(oldest);
  }
  const startedAt = Date.now();
  entries.set(key, { value: previous, at: entries.get(key)?.at ?? 0, pending });
  pending.then(
    (value) => {
      entries.delete(key);
      entries.set(key, { value, at: startedAt });
    },
    () => {
      // Keep the previous value (if any); the next caller retries.
      entries.set(key, { value: previous, at: entries.get(key)?.at ?? 0 });
    },
  );
  return pending;
}

/** The shared exact count for key (see above); `plausible` rejects a value the caller knows is wrong. */
export async function cachedCount(
  key: string,
  count: () => Promise<number>,
  plausible: (value: number) => boolean = () => true,
): Promise<number> {
  if (ttlMs <= 0) return count();
  const hit = entries.get(key);
  const age = hit ? Date.now() - hit.at : Number.POSITIVE_INFINITY;
  if (hit?.value !== undefined && plausible(hit.value)) {
    if (age < ttlMs) return hit.value;
    if (age < maxStaleMs) {
      if (!hit.pending) refresh(key, count, hit.value).catch(() => {});
      return hit.value;
    }
  }
  if (hit?.pending) {
    const value = await hit.pending.catch(() => undefined);
    if (value !== undefined && plausible(value)) return value;
  }
  return refresh(key, count, hit?.value);
}
