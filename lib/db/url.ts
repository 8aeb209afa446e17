// Where the database is: DATABASE_URL (server), else the embedded PGlite served by the
// running app, else this process opens the data folder itself.
import { env } from "@/lib/core/env";
import { type EmbeddedServer, findRunningEmbedded, startEmbedded } from "./embedded";
import { migrate } from "./migrate";

let owned: EmbeddedServer | undefined;

export async function resolveDatabaseUrl(): Promise<{ url: string; embedded: boolean }> {
  const e = env();
  if (e.DATABASE_URL) return { url: e.DATABASE_URL, embedded: false };
  const running = await findRunningEmbedded(e.DATA_DIR);
  if (running) return { url: running.url, embedded: true };
  owned ??= await startEmbedded(e.DATA_DIR);
  await migrate(owned.url);
  return { url: owned.url, embedded: true };
}

/** Closes the embedded database this process opened, if it opened one. */
export async function closeOwnedEmbedded(): Promise<void> {
  await owned?.close();
  owned = undefined;
}
