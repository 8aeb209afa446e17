// The process's PostgreSQL connections: one pg pool, shared by hotRows (below) and the Prisma
// client (lib/db/index.ts, created on that pool when first used). This module loads no Prisma code,
// so a code path that only runs hotRows (the operator CLI's read commands) never loads the
// generated client or its WebAssembly query compiler, about a third of such a command's time
// (docs/benchmarks.md "The operator CLI").
import pg from "pg";
import { CustomerShares, currentCustomer, inBackground, shareFullFrom } from "@/lib/core/db-context";
import { env } from "@/lib/core/env";
import { recogniseErrors } from "@/lib/core/error-answer";
import { statementTimeoutFrom, transactionTimeoutFrom } from "./statement-timeout";
import { databaseUnavailableFrom, onDatabase } from "./unavailable";
import { resolveDatabaseUrl } from "./url";

// A database that cannot be reached answers 503 with Retry-After wherever errorAnswer renders
// it, never a 500 (lib/db/unavailable.ts); registered here, where every query path starts.
recogniseErrors(databaseUnavailableFrom);
// A request's statement past DATABASE_STATEMENT_TIMEOUT_MS answers 503 with Retry-After too.
recogniseErrors(statementTimeoutFrom);
// ... and a transaction that could not start in time on a busy database (Prisma's P2028).
recogniseErrors(transactionTimeoutFrom);
// A request past its customer's share of the connections (lib/core/db-context.ts), as Prisma rethrows it.
recogniseErrors(shareFullFrom);

/** What lib/db/index.ts keeps beside the pool; typed here only as far as closing it needs. */
type Client = { $disconnect(): Promise<void> };
export type DbHolder = {
  /** The request pool (under the statement timeout, each customer within its share). */
  pool?: pg.Pool;
  /** Background work's pool (no statement timeout), opened on first use by background work. */
  workPool?: pg.Pool;
  url?: string;
  ready?: Promise<pg.Pool>;
  client?: Client;
  workClient?: Client;
};

// Next.js may evaluate these modules more than once; keep one pool (and client) per process.
const g = globalThis as { __switchboardDb?: DbHolder };
g.__switchboardDb ??= {};
export const holder: DbHolder = g.__switchboardDb;

// Per process: the request connections each customer holds (DATABASE_CUSTOMER_CONNECTIONS).
const gs = globalThis as { __switchboardShares?: CustomerShares };
gs.__switchboardShares ??= new CustomerShares(
  () => env().DATABASE_CUSTOMER_CONNECTIONS,
  () => env().DATABASE_CUSTOMER_WAIT_MS,
);
export const customerShares: CustomerShares = gs.__switchboardShares;

type Connected = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: Error | boolean) => void,
) => void;

/**
 * The request pool: a connection taken for a customer's request (lib/core/db-context.ts) counts
 * against that customer's share until it is released, so one customer's burst leaves the rest
 * of the pool to the others (and to the health check, which belongs to nobody). pg-pool's own
 * query() takes its connection through connect() too, so every path is counted.
 */
class RequestPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Connected): void;
  override connect(callback?: Connected): Promise<pg.PoolClient> | undefined {
    const customerId = currentCustomer();
    // The embedded PGlite runs every connection in one session, one statement at a time: a
    // share would keep nothing free for others there, only refuse requests that queue.
    if (customerId === undefined || prepared.server === PGLITE) {
      if (!callback) return super.connect();
      super.connect(callback);
      return undefined;
    }
    const taken = customerShares.acquire(customerId).then(async (giveBack) => {
      try {
        const client = await super.connect();
        const release = client.release.bind(client);
        client.release = (err?: Error | boolean) => {
          giveBack();
          release(err);
        };
        return client;
      } catch (error) {
        giveBack();
        throw error;
      }
    });
    if (!callback) return taken;
    taken.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }
}

/** What request connections price a random page read at (docs/database.md "Connections"). */
export const REQUEST_RANDOM_PAGE_COST = "1.1";

function makePool(url: string, background: boolean): pg.Pool {
  const { DATABASE_POOL_SIZE: max, DATABASE_STATEMENT_TIMEOUT_MS: timeout } = env();
  // The timeout is the session's, set when each connection opens (the embedded PGlite ignores
  // it: it runs one statement at a time and has no timer). JIT compilation is off on request
  // connections: a statement planned costly enough (a month's support report of a large account)
  // spent as long compiling as running, on every request (docs/database.md "Connections"). They
  // also price a random page read as solid-state storage does (1.1, PostgreSQL's own suggestion for
  // it): at the default 4 (spinning disks) a month's support report read a whole table of 3.2M rows
  // rather than its 161,000 rows' pages through the index, at twice the time (docs/database.md).
  const options = [
    ...(timeout > 0 ? [`-c statement_timeout=${timeout}`] : []),
    "-c jit=off",
    `-c random_page_cost=${REQUEST_RANDOM_PAGE_COST}`,
  ].join(" ");
  const pool = background
    ? new pg.Pool({ connectionString: url, max })
    : new RequestPool({ connectionString: url, max, options });
  // An idle connection that drops (server restart, the embedded socket closing) must not
  // crash the process. The logger (pino) is loaded only then: a CLI command never needs it.
  // The error's message and code only: pg hangs the whole client on it (its pool, connection
  // parameters and type tables), a few KB of log line per dropped connection.
  pool.on("error", (err) => {
    const brief = { message: err.message, code: (err as { code?: string }).code };
    void import("@/lib/core/log").then(({ log }) => log.warn({ err: brief }, "idle database connection failed"));
  });
  return pool;
}

function openPool(url: string): pg.Pool {
  holder.url = url;
  holder.pool = makePool(url, false);
  // Whether this is the embedded PGlite, known before the first request needs it.
  void serverPrepares(holder.pool).catch(() => {});
  holder.ready = Promise.resolve(holder.pool);
  return holder.pool;
}

/** The pool of the work running now: background work's (lib/core/db-context.ts), else the request pool. */
export function poolFor(requestPool: pg.Pool): pg.Pool {
  if (!inBackground() || holder.url === undefined) return requestPool;
  holder.workPool ??= makePool(holder.url, true);
  return holder.workPool;
}

/** Connects on first use (resolving the embedded server when DATABASE_URL is unset). */
export function connectPool(): Promise<pg.Pool> {
  holder.ready ??= resolveDatabaseUrl().then(({ url }) => holder.pool ?? openPool(url));
  return holder.ready;
}

/** The pool of the work running now (poolFor), synchronously: after connectPool() once, or at once with DATABASE_URL. */
export function poolNow(): pg.Pool {
  if (holder.pool) return poolFor(holder.pool);
  // With DATABASE_URL (a server, or the embedded socket the app's supervisor hands to Next
  // and to tests) no look-up is needed; otherwise await connectPool() (or getDb()) first.
  const url = env().DATABASE_URL;
  if (!url) throw new Error("Database not connected yet: await getDb() during start-up");
  return poolFor(openPool(url));
}

/** Closes the Prisma clients (if they were created) and the pools. */
export async function disconnectDb(): Promise<void> {
  await holder.client?.$disconnect();
  await holder.workClient?.$disconnect();
  await holder.pool?.end().catch(() => {});
  await holder.workPool?.end().catch(() => {});
  holder.client = undefined;
  holder.workClient = undefined;
  holder.pool = undefined;
  holder.workPool = undefined;
  holder.url = undefined;
  prepared.server = undefined;
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
 * Runs a statement (a Prisma.sql value, or `{ text, values }` with $1, $2...) straight on the
 * shared pg pool. For the few statements every request runs (token, sender, billing list,
 * blacklist, message insert, provider callback store) where Prisma's per-statement CPU (~1 ms
 * against ~0.15 ms for pg, docs/benchmarks.md) is most of a request, and for the operator
 * CLI's reads, which then load no Prisma code at all. Rows come back as pg parses them:
 * timestamps as Date, numeric and int8 as string.
 */
export async function hotRows<T>(query: { text: string; values: unknown[] }): Promise<T[]> {
  return (await hotStatement(query.text, query.values)).rows as T[];
}

/** As hotRows, one statement of its own on the pool, with its row count (lib/db/plain-tx.ts plainDb). */
export function hotStatement(text: string, values: unknown[]): Promise<{ rows: unknown[]; rowCount: number }> {
  return onDatabase(async () => {
    const pool = poolFor(holder.pool ?? (await connectPool()));
    const result = await pool.query({ text, values: values.map(hotValue), types: hotTypes });
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  });
}

/** Per process (on globalThis, as the pool): each pooled connection's number for hotPrepared's names. */
type Prepared = { numbers: WeakMap<pg.PoolClient, number>; last: number; server?: Promise<boolean> | typeof PGLITE };
/** prepared.server once the database answered that it is the embedded PGlite. */
const PGLITE = "pglite";
const gp = globalThis as { __switchboardPrepared?: Prepared };
gp.__switchboardPrepared ??= { numbers: new WeakMap(), last: 0 };
const prepared: Prepared = gp.__switchboardPrepared;

/**
 * Whether named statements are safe: on a PostgreSQL server each connection is its own
 * session, and a statement prepared on it goes away with it. The embedded PGlite runs every
 * connection of every process in one session, where names would collide and prepared
 * statements would pile up as the pool replaces idle connections: there hotPrepared
 * runs its statements unnamed, as hotRows does.
 */
function serverPrepares(pool: pg.Pool): Promise<boolean> {
  if (prepared.server === PGLITE) return Promise.resolve(false);
  if (prepared.server) return prepared.server;
  const probe: Promise<boolean> = pool
    .query<{ v: string }>("SELECT version() AS v")
    .then((r) => {
      const server = !/PGlite/i.test(r.rows[0]?.v ?? "");
      if (!server && prepared.server === probe) prepared.server = PGLITE;
      return server;
    })
    .catch((error) => {
      if (prepared.server === probe) prepared.server = undefined;
      throw error;
    });
  prepared.server = probe;
  return probe;
}

/**
 * As hotRows, for a statement run many times a second (the delivery worker's claim, start
 * and outcome writes): on a PostgreSQL server, prepared once per connection under `name`
 * (with the connection's number), so PostgreSQL parses and plans it once, not on every run.
 */
export function hotPrepared<T>(name: string, query: { text: string; values: unknown[] }): Promise<T[]> {
  return onDatabase(() => runPrepared<T>(name, query));
}

async function runPrepared<T>(name: string, query: { text: string; values: unknown[] }): Promise<T[]> {
  const pool = poolFor(holder.pool ?? (await connectPool()));
  if (!(await serverPrepares(pool))) return hotRows<T>(query);
  const client = await pool.connect();
  let number = prepared.numbers.get(client);
  if (number === undefined) {
    prepared.last += 1;
    number = prepared.last;
    prepared.numbers.set(client, number);
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

/** A statement on a hotTransaction's connection: rows as hotRows gives them, and the rows changed. */
export type HotStatement = (text: string, values: unknown[]) => Promise<{ rows: unknown[]; rowCount: number }>;

/**
 * Runs `work` in a transaction on one connection of the pool, its statements plain pg as
 * hotRows's (the automation runner's, lib/db/plain-tx.ts): committed when `work` resolves,
 * rolled back when it throws. A connection that failed mid-way is not reused.
 */
export function hotTransaction<T>(work: (statement: HotStatement) => Promise<T>): Promise<T> {
  return onDatabase(async () => {
    const pool = poolFor(holder.pool ?? (await connectPool()));
    const client = await pool.connect();
    const statement: HotStatement = async (text, values) => {
      const result = await client.query({ text, values: values.map(hotValue), types: hotTypes });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    };
    let failed: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await work(statement);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch (rollback) {
        failed = rollback as Error;
      }
      throw error;
    } finally {
      client.release(failed);
    }
  });
}
