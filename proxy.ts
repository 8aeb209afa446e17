// First gate: no session cookie -> /login for pages (app/api/dashboard/* handlers answer 401 themselves).
// Pages and handlers check the session again on the server (getSessionPrincipal).

import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { servedOverHttps } from "@/lib/dashboard/secure-cookies";
import { env } from "@/lib/env";

const PUBLIC_PAGES = ["/login", "/signup"];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return NextResponse.next();
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
  // app/api/dashboard: its handlers check the session themselves (lib/dashboard/handler.ts),
  // and a request this proxy sees has its body copied by Next (up to 10 MB, the rest read
  // and dropped, the handler getting a silently cut copy) before any of our checks.
  matcher: ["/((?!api/v2|api/v3|api/auth|api/provider|api/dashboard|_next|favicon.ico|docs).*)"],
};
