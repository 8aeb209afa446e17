// What an app/api/dashboard/* mutation must be before its body is read: sent by our own
// pages (same origin: a forged cross-site POST carries the session cookie but never our
// Origin), and as JSON (a cross-site form can send text/plain without a preflight). The router
// reads the body then, bounded, with the public API's input rules (lib/api/router.ts).
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The hosts this deployment answers on: the request's own (as the proxy forwarded it) and the configured URLs. */
function ownHosts(request: Request): Set<string> {
  const { NEXTAUTH_URL, PUBLIC_URL } = env();
  const hosts = [request.headers.get("x-forwarded-host"), request.headers.get("host"), new URL(request.url).host];
  for (const url of [NEXTAUTH_URL, PUBLIC_URL]) if (url) hosts.push(new URL(url).host);
  return new Set(hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase()));
}

/**
 * Whether a state-changing request comes from our own pages. Browsers send Origin on every
 * POST (and Sec-Fetch-Site); a request with neither is not from a browser page and is
 * refused too: the dashboard's own fetches always carry them, and a script holding the
 * cookie has the public API.
 */
export function isSameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return site === "same-origin";
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, privacy redirects) or garbage
  }
  return ownHosts(request).has(host);
}

export const isJsonRequest = (request: Request) =>
  /^application\/([\w.+-]+\+)?json\b/i.test((request.headers.get("content-type") ?? "").trim());

/**
 * Throws CROSS_ORIGIN_REQUEST when a state-changing request does not come from our own pages:
 * the dashboard handlers (below) and, in proxy.ts, the server actions (any POST to a page,
 * whatever its body type). Next alone runs an action that carries no Origin at all and
 * answers a foreign one with a 500.
 */
export function guardSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method) || isSameOrigin(request)) return;
  throw new ApiError("CROSS_ORIGIN_REQUEST", "This request must come from the dashboard's own pages");
}

/** Throws the contract error when a mutation is cross-site or not JSON. */
export function guardMutation(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  guardSameOrigin(request);
  if (!isJsonRequest(request)) {
    throw new ApiError("UNSUPPORTED_CONTENT_TYPE", "This endpoint accepts only Content-Type: application/json");
  }
}
