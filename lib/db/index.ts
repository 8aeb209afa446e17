// The only module that creates the Prisma client. One adapter (adapter-pg) for both
// modes: a PostgreSQL server, or embedded PGlite served on a loopback socket. The client
// runs on the process's pg pool (lib/db/pool.ts), which hotRows shares; a module that
// needs only hotRows imports lib/db/pool.ts and loads no Prisma code.
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { recogniseErrors } from "@/lib/core/error-answer";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { connectPool, holder, poolFor, poolNow } from "./pool";
import { uniqueConflictFrom } from "./unique-conflict";

// A unique-constraint race a service does not catch itself answers its contract's 409
// (lib/db/unique-conflict.ts), wherever errorAnswer renders it.
recogniseErrors(uniqueConflictFrom);

export { disconnectDb, hotPrepared, hotRows, hotTransaction } from "./pool";

export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export function createClient(url: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

/**
 * The process's client on that pool, created on first use: one on the request pool, one on
 * background work's (lib/core/db-context.ts), each sharing its pool's connections with hotRows.
 */
function clientOn(pool: pg.Pool): PrismaClient {
  if (pool === holder.workPool) {
    holder.workClient ??= new PrismaClient({ adapter: new PrismaPg(pool) });
    return holder.workClient as PrismaClient;
  }
  holder.client ??= new PrismaClient({ adapter: new PrismaPg(pool) });
  return holder.client as PrismaClient;
}

/** Connects on first use (resolving the embedded server when DATABASE_URL is unset). */
export function getDb(): Promise<PrismaClient> {
  return connectPool().then((pool) => clientOn(poolFor(pool)));
}

/** The connected client; after `await getDb()` (or connectPool()) once, synchronous use is fine. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = clientOn(poolNow());
    return Reflect.get(client, prop, client);
  },
});
