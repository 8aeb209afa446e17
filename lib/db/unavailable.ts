// The database cannot be reached (stopped, restarting, the network to it down, every
// connection it allows taken): an answer of its own, 503 SERVICE_UNAVAILABLE with
// Retry-After, never the 500 of an unexpected failure (docs/api/errors.md "When to retry").
// errorAnswer (lib/core/error-answer.ts) asks this through recogniseErrors, registered by
// lib/db/pool.ts, so the router, the lean and front servers, the Next mount, the dashboard's
// handlers and server actions all answer it alike.
import { ApiError } from "@/lib/core/errors";

/** Long enough for a restart or a fail-over; short enough that a client is not kept waiting. */
export const RETRY_AFTER_SECONDS = 5;

/** Socket failures of a connection to the database (pg's, as Node names them; see fromDatabase). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/**
 * PostgreSQL's own: class 08 (connection exception), 57P01-57P03 (shut down by an
 * administrator, crashed, not accepting connections yet), 53300 (too many connections).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Prisma's for the same: cannot reach, timed out, closed, no pooled connection in time, too many. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** @prisma/adapter-pg's error kinds for the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** pg's messages for a connection that ended or never opened (no code on these). */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /connection error and is not queryable/,
  /^Can't reach database server/,
  /^Server has closed the connection/,
];

/** Set on what a query of ours on the pg pool threw: a socket failure there is the database's. */
const FROM_DATABASE = Symbol.for("switchboard.fromDatabase");

/** Runs a query on the pool; what it throws is marked as the database's (hotRows, hotPrepared). */
export async function onDatabase<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (error) {
    if (error !== null && typeof error === "object") (error as { [FROM_DATABASE]?: true })[FROM_DATABASE] = true;
    throw error;
  }
}

/**
 * A socket code says "the database" only on an error from it: our pool queries (marked) or the
 * Prisma client (its errors carry clientVersion). The same codes from a fetch to the provider
 * or a webhook endpoint are those services' failures, answered as such.
 */
function fromDatabase(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const e = error as { [FROM_DATABASE]?: true; clientVersion?: unknown };
  return e[FROM_DATABASE] === true || typeof e.clientVersion === "string";
}

type Loose = {
  code?: unknown;
  kind?: unknown;
  errorCode?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** The error and what it wraps: cause chains, Prisma's driver adapter error, an AggregateError's errors. */
function* chain(error: unknown, depth = 0): Generator<Loose> {
  if (depth > 6 || error === null || typeof error !== "object") return;
  const e = error as Loose;
  yield e;
  yield* chain(e.cause, depth + 1);
  yield* chain(e.meta?.driverAdapterError, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
}

function unreachable(e: Loose, database: boolean): boolean {
  const codes = [e.code, e.errorCode, e.originalCode].filter((c): c is string => typeof c === "string");
  if (codes.some((c) => (database && SOCKET_CODES.has(c)) || SQLSTATE.test(c) || PRISMA_CODES.has(c))) return true;
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  return typeof e.message === "string" && MESSAGES.some((m) => m.test(e.message as string));
}

/** Whether `error` says the database could not be reached (rather than refusing a statement). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const database = fromDatabase(error);
  for (const e of chain(error)) if (unreachable(e, database)) return true;
  return false;
}

/** 503 SERVICE_UNAVAILABLE with Retry-After when the database could not be reached; else undefined. */
export function databaseUnavailableFrom(error: unknown): ApiError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `The service is briefly unavailable; retry in ${RETRY_AFTER_SECONDS} seconds`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}
