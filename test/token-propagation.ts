// Waiting for token and customer changes to reach this process's verified-token cache
// (docs/tokens.md "Verified-token cache"), for tests that change rows in the database
// directly or in another process and then call the API. Deterministic: no sleeps.
import type { Socket } from "node:net";
import pg from "pg";
import { inject } from "vitest";
import { isListening, wakeupsReady } from "@/lib/db/wakeups";
import { tokenCache, tokenCacheSynced } from "@/lib/tokens/token-cache";

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

/** Another process's connection (the CLI, another API instance, an operator's psql). */
export async function otherConnection<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
