// A request's statement that ran past DATABASE_STATEMENT_TIMEOUT_MS (PostgreSQL cancels it:
// SQLSTATE 57014) is answered like a database too busy to serve it: 503 SERVICE_UNAVAILABLE
// with Retry-After and the envelope, never a 500 (docs/database.md "Connections").
// errorAnswer asks this through recogniseErrors, registered by lib/db/pool.ts.
import { ApiError } from "@/lib/core/errors";

const RETRY_AFTER_SECONDS = 5;

type Loose = {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** pg's error, Prisma's driver adapter error around it, and their causes. */
function cancelled(error: unknown, depth = 0): boolean {
  if (depth > 6 || error === null || typeof error !== "object") return false;
  const e = error as Loose;
  if (e.code === "57014" || e.originalCode === "57014") return true;
  // Prisma's unknown request error names the code only in its message.
  if (typeof e.message === "string" && /Code: `57014`/.test(e.message)) return true;
  return cancelled(e.cause, depth + 1) || cancelled(e.meta?.driverAdapterError, depth + 1);
}

/** 503 with Retry-After for a statement PostgreSQL cancelled on its timeout; else undefined. */
export function statementTimeoutFrom(error: unknown): ApiError | undefined {
  if (!cancelled(error)) return undefined;
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `The database took too long to answer this request; retry in ${RETRY_AFTER_SECONDS} seconds`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}

/**
 * 503 with Retry-After for a transaction Prisma could not start within its wait for a
 * connection, or that outlived its time limit while the database was busy (P2028: every
 * connection held by other requests, the embedded PGlite's one-at-a-time queue); else
 * undefined. The request changed nothing: the transaction never started, or rolled back.
 */
export function transactionTimeoutFrom(error: unknown): ApiError | undefined {
  const e = error as { code?: unknown; clientVersion?: unknown } | null;
  if (e?.code !== "P2028" || typeof e.clientVersion !== "string") return undefined;
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `The database is too busy to answer this request; retry in ${RETRY_AFTER_SECONDS} seconds`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}
