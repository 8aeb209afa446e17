// The process's verified-token cache and how it learns of changes (docs/tokens.md
// "Verified-token cache"): token hash -> verified record and principal (never the plain
// token), at most TOKEN_CACHE_MAX_ENTRIES, each at most TOKEN_CACHE_MAX_AGE_MS old.
// Triggers on "ApiToken" and "Customer" (migration 20261124010000_token_cache_notify)
// NOTIFY the `tokens` channel in the writing transaction, from any process or a direct SQL
// update; every notification clears the whole cache (changes are rare; a cleared cache
// costs one look-up per token). While the LISTEN connection is down the cache neither
// serves nor stores, and the reconnection clears it (lib/db/wakeups.ts).
import { randomUUID } from "node:crypto";
import { hotRows } from "@/lib/db";
import { CHANNELS, isListening, onNotification } from "@/lib/db/wakeups";
import type { TokenPrincipal } from "@/lib/domains/auth/principal";
import { type ApiToken, Prisma } from "@/lib/generated/prisma/client";
import { VerifiedCache } from "./verified-cache";

/** What verifyToken answers (lib/domains/tokens/service.ts) and this cache holds. */
export type VerifiedToken = { principal: TokenPrincipal; record: ApiToken };

export const TOKEN_CACHE_MAX_ENTRIES = 10_000;
export const TOKEN_CACHE_MAX_AGE_MS = 60_000;

/** Payloads of tokenCacheSynced's own notifications: they clear nothing. */
const SYNC_PREFIX = "sync:";

type State = { cache: VerifiedCache<VerifiedToken>; subscribed: boolean; markers: Map<string, () => void> };
// Next.js may evaluate this module more than once; keep one cache per process.
const g = globalThis as { __switchboardTokenCache?: State };
g.__switchboardTokenCache ??= {
  cache: new VerifiedCache<VerifiedToken>({
    maxEntries: TOKEN_CACHE_MAX_ENTRIES,
    maxAgeMs: TOKEN_CACHE_MAX_AGE_MS,
    live: () => isListening("tokens"),
  }),
  subscribed: false,
  markers: new Map(),
};
const state: State = g.__switchboardTokenCache;

function onTokenChange(payload: string | undefined) {
  if (payload?.startsWith(SYNC_PREFIX)) {
    state.markers.get(payload)?.();
    return;
  }
  state.cache.invalidateAll();
  // undefined: the connection came back; what was missed is cleared, nothing to wait for.
  if (payload === undefined) for (const done of state.markers.values()) done();
}

/** The cache; the first call starts listening (until then, and while down, it serves nothing). */
export function tokenCache(): VerifiedCache<VerifiedToken> {
  if (!state.subscribed) {
    state.subscribed = true;
    onNotification("tokens", onTokenChange);
  }
  return state.cache;
}

/** Benchmarks only (bench/api-lean-entry.ts): maxEntries 0 turns the cache off (every request looks up). */
export function configureTokenCache(options: { maxEntries: number }): void {
  state.cache = new VerifiedCache<VerifiedToken>({
    maxEntries: options.maxEntries,
    maxAgeMs: TOKEN_CACHE_MAX_AGE_MS,
    live: () => isListening("tokens"),
  });
}

/** In-process invalidation, right after a service here committed a change to tokens or customers. */
export function invalidateVerifiedTokens(): void {
  state.cache.invalidateAll();
}

/**
 * Resolves once every change committed before this call (in any process) has reached this
 * process's cache: it notifies a marker of its own and waits to receive it (a listener gets
 * notifications in commit order). No wait when the cache is not listening (it serves nothing).
 */
export async function tokenCacheSynced(timeoutMs = 10_000): Promise<void> {
  if (!state.subscribed || !isListening("tokens")) return;
  const marker = `${SYNC_PREFIX}${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      state.markers.set(marker, resolve);
      timer = setTimeout(() => {
        if (isListening("tokens")) reject(new Error(`token cache: no notification within ${timeoutMs} ms`));
        else resolve();
      }, timeoutMs);
      hotRows(Prisma.sql`SELECT pg_notify(${CHANNELS.tokens}, ${marker})`).catch(reject);
    });
  } finally {
    clearTimeout(timer);
    state.markers.delete(marker);
  }
}
