// First gate: no session cookie -> /login for pages, 401 for app/api/dashboard/*.
// Pages and handlers check the session again on the server (getSessionPrincipal).

import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { servedOverHttps } from "@/lib/auth/secure-cookies";
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
  if (pathname.startsWith("/api/dashboard/")) {
    return NextResponse.json(
      { success: false, message: "Sign in to continue", error_code: "UNAUTHORIZED" },
      { status: 401 },
    );
  }
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything except the public API, auth endpoints, static assets and the docs.
  matcher: ["/((?!api/v2|api/v3|api/auth|api/provider|_next|favicon.ico|docs).*)"],
};
