// Waiting for token and customer changes to reach this process's verified-token cache
// (docs/tokens.md "Verified-token cache"), for tests that change rows in the database
// directly or in another process and then call the API. Deterministic: no sleeps.
import type { Socket } from "node:net";
import type pg from "pg";
import { isListening, wakeupsReady } from "@/lib/db/wakeups";
import { tokenCache, tokenCacheSynced } from "@/lib/domains/tokens/token-cache";

/**
 * Resolves once every change committed before the call has reached the cache (a marker
 * notification of its own comes back after them: a listener gets notifications in commit
 * order). Call it after a direct UPDATE/DELETE of "ApiToken" or "Customer", or after the CLI.
 */
export const tokenChangesPropagated = tokenCacheSynced;

/** Resolves once the cache listens for changes (and so may serve hits). */
export async function tokenCacheListening(): Promise<void> {
  tokenCache();
  await wakeupsReady();
  while (!isListening("tokens")) await new Promise((r) => setImmediate(r));
}

/** Cuts this process's LISTEN connection as a network failure would (its socket closes). */
export function cutListenConnection(): void {
  const state = (globalThis as { __switchboardWakeups?: { client?: pg.Client } }).__switchboardWakeups;
  const client = state?.client as unknown as { connection: { stream: Socket } } | undefined;
  if (!client) throw new Error("no LISTEN connection to cut");
  client.connection.stream.destroy();
}
