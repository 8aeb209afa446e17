// A connection of "another process" (the CLI, another API instance, an operator's psql) on
// the test database, for tests of what crosses processes (NOTIFY wake-ups, cache invalidation).
import pg from "pg";
import { inject } from "vitest";

export async function otherConnection<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
