// The only module that creates the Prisma client. One adapter (adapter-pg) for both
// modes: a PostgreSQL server, or embedded PGlite served on a loopback socket.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { resolveDatabaseUrl } from "./db/url";

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

type Holder = { client?: PrismaClient; pool?: pg.Pool; url?: string; ready?: Promise<PrismaClient> };
// Next.js may evaluate this module more than once; keep one client per process.
const g = globalThis as { __switchboardDb?: Holder };
g.__switchboardDb ??= {};
const holder: Holder = g.__switchboardDb;

export function createClient(url: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

/** The process's client, on a pool it shares with hotRows (one set of connections). */
function connect(url: string): PrismaClient {
  holder.url = url;
  holder.pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that drops (server restart, the embedded socket closing) must not
  // crash the process before Prisma has attached its own listener.
  holder.pool.on("error", (err) => log.warn({ err }, "idle database connection failed"));
  holder.client = new PrismaClient({ adapter: new PrismaPg(holder.pool) });
  holder.ready = Promise.resolve(holder.client);
  return holder.client;
}

/** Connects on first use (resolving the embedded server when DATABASE_URL is unset). */
export function getDb(): Promise<PrismaClient> {
  holder.ready ??= resolveDatabaseUrl().then(({ url }) => holder.client ?? connect(url));
  return holder.ready;
}

/** The connected client; after `await getDb()` once, synchronous use is fine. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    let client = holder.client;
    if (!client) {
      // With DATABASE_URL (a server, or the embedded socket the app's supervisor hands
      // to Next and to tests) no look-up is needed; otherwise await getDb() first.
      const url = env().DATABASE_URL;
      if (!url) throw new Error("Database not connected yet: await getDb() during start-up");
      client = connect(url);
    }
    return Reflect.get(client, prop, client);
  },
});

export async function disconnectDb(): Promise<void> {
  await holder.client?.$disconnect();
  await holder.pool?.end().catch(() => {});
  holder.client = undefined;
  holder.pool = undefined;
  holder.ready = undefined;
}

// Columns are `timestamp(3)` without time zone holding UTC (Prisma's convention); pg would
// read them as local time. numeric and int8 stay strings, as with pg's defaults.
const UTC_TIMESTAMP = pg.types.builtins.TIMESTAMP;
const hotTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === UTC_TIMESTAMP
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Dates go in as UTC (pg would send local time with an offset that timestamp drops). */
const hotValue = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * Runs a Prisma.sql statement straight on the shared pg pool. For the few statements
 * every request runs (token, sender, billing list, blacklist, message insert, provider
 * callback store) where Prisma's per-statement CPU (~1 ms against
 * ~0.15 ms for pg, docs/benchmarks.md) is most of a request. Rows come back as pg parses
 * them: timestamps as Date, numeric as string.
 */
export async function hotRows<T>(query: { text: string; values: unknown[] }): Promise<T[]> {
  if (!holder.pool) await getDb();
  const pool = holder.pool as pg.Pool;
  const result = await pool.query({ text: query.text, values: query.values.map(hotValue), types: hotTypes });
  return result.rows as T[];
}

const clientNumbers = new WeakMap<pg.PoolClient, number>();
let lastClientNumber = 0;

/**
 * As hotRows, for a statement run many times a second (the delivery worker's claim, start
 * and outcome writes): prepared once per connection under `name`, so PostgreSQL parses and
 * plans it once, not on every run. The name carries the connection's number, so the pool's
 * connections never collide where they share one backend (the embedded PGlite server).
 */
export async function hotPrepared<T>(name: string, query: { text: string; values: unknown[] }): Promise<T[]> {
  if (!holder.pool) await getDb();
  const client = await (holder.pool as pg.Pool).connect();
  let number = clientNumbers.get(client);
  if (number === undefined) {
    lastClientNumber += 1;
    number = lastClientNumber;
    clientNumbers.set(client, number);
  }
  try {
    const result = await client.query({
      name: `${name}_${number}`,
      text: query.text,
      values: query.values.map(hotValue),
      types: hotTypes,
    });
    client.release();
    return result.rows as T[];
  } catch (error) {
    client.release(error as Error); // as pool.query does: a failed connection is not reused
    throw error;
  }
}
