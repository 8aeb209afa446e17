// First gate. A server action (a POST to any page) that does not come from our own pages
// -> 403 CROSS_ORIGIN_REQUEST. A dashboard page without a session cookie -> /login (app/api/dashboard/*
// handlers answer 401 themselves). Any other /api path this proxy sees is one no route
// serves: the 404 envelope, never a redirect to an HTML page. Any other path is left to
// Next, whose answer for an unknown one is app/not-found.tsx.
// Pages and handlers check the session again on the server (getSessionPrincipal).

import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { errorBody } from "@/lib/api/envelope";
import { env } from "@/lib/core/env";
import { errorAnswer } from "@/lib/core/error-answer";
import { ApiError } from "@/lib/core/errors";
import { guardSameOrigin } from "@/lib/dashboard/request-guard";
import { servedOverHttps } from "@/lib/dashboard/secure-cookies";

/** The first path segment of every page under app/(dashboard) ("" is the home page). */
export const DASHBOARD_SECTIONS = [
  "",
  "account",
  "analytics",
  "audit",
  "automations",
  "billing",
  "blacklist",
  "broadcasts",
  "chatbots",
  "contacts",
  "inbox",
  "members",
  "messages",
  "no-access",
  "reports",
  "senders",
  "templates",
  "tokens",
  "webhooks",
];

export const isDashboardPage = (pathname: string) => DASHBOARD_SECTIONS.includes(pathname.split("/")[1] ?? "");

export const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** The router's 404 envelope for a path no route serves. */
export function apiNotFound(method: string, pathname: string): Response {
  const requestId = `req_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
  const error = errorAnswer(new ApiError("NOT_FOUND", `No route for ${method} ${pathname}`), { requestId });
  return NextResponse.json(errorBody({ version: "v3", requestId, startedAt: performance.now() }, error), {
    status: 404,
    headers: { "X-Service-Request-Id": requestId },
  });
}

/** The dashboard's refusal answer (the error envelope, as the router's session mount answers) before Next runs anything. */
function refusal(caught: unknown): Response {
  const error = errorAnswer(caught);
  return NextResponse.json(
    { success: false, message: error.message, error_code: error.code, details: error.details },
    { status: error.status, headers: error.headers },
  );
}

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (isApiPath(pathname)) return apiNotFound(request.method, pathname);
  // A POST to a page is a server action (signed in or not: /signup has one): only from our own pages.
  try {
    guardSameOrigin(request);
  } catch (caught) {
    return refusal(caught);
  }
  if (!isDashboardPage(pathname)) return NextResponse.next();
  const token = await getToken({
    req: request,
    secret: env().NEXTAUTH_SECRET,
    // The cookie name depends on it (__Secure- prefix): the same rule as next-auth's own.
    secureCookie: servedOverHttps(request.headers),
  }).catch(() => null);
  if (token?.customerId) return NextResponse.next();
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything except the public API, auth endpoints, static assets and the docs. Nor
  // app/api/dashboard: the router's session mount checks the session itself (app/api/dashboard/[...path]),
  // and a request this proxy sees has its body copied by Next (up to 10 MB, the rest read
  // and dropped, the handler getting a silently cut copy) before any of our checks.
  matcher: ["/((?!api/v2|api/v3|api/auth|api/provider|api/dashboard|graph|_next|favicon.ico|docs).*)"],
};
