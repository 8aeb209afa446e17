// How the dashboard's reads recover from a failed fetch (docs/inbox.md "When a read fails").
// Pure, so it is unit-tested; components/dashboard/providers.tsx and the live pages use it.
import { DashboardApiError } from "./client";

/** Retries of a read that failed for a passing reason (a restart, a busy database, the network). */
export const TRANSIENT_RETRIES = 3;
/** A read still failing after its retries is tried again this often while its page is open. */
export const FAILED_READ_POLL_MS = 5_000;

/** 0 (no answer: the network), 408, 429 and 5xx pass; any other refusal answers the same when asked again. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof DashboardApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** TanStack Query's `retry`: a passing failure up to TRANSIENT_RETRIES times, any other once (as before). */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  return failureCount < (isTransient(error) ? TRANSIENT_RETRIES : 1);
}

/**
 * A live read's `refetchInterval`: polled every `pollMs` while the live stream is not open
 * (docs/inbox.md "Live updates"), and every FAILED_READ_POLL_MS while its last fetch failed,
 * stream or not: a notice may never come to refetch it, and the page must not stay on its
 * error until a reload.
 */
export function livePoll(live: boolean, pollMs: number): (query: { state: { status: string } }) => number | false {
  return (query) => (query.state.status === "error" ? FAILED_READ_POLL_MS : live ? false : pollMs);
}
