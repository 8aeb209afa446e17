// The Next.js side of the dashboard session: reads the next-auth session and hands its ids
// to lib/domains/security/session-principal.ts; pages redirect to /login, dashboard handlers get a 401.

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { principalForSession, type SessionIds } from "@/lib/domains/security/session-principal";
import { authOptions } from "./next-auth";
import { originFrom } from "./request-origin";
import { servedOverHttps } from "./secure-cookies";

/**
 * The signed-in user's principal, or null (no session, user removed, customer suspended).
 * Cached per request: the layout and the page both ask.
 */
export const getSessionPrincipal = cache(async (): Promise<Principal | null> => {
  // The session cookie's name depends on it (the __Secure- prefix over HTTPS).
  const h = await headers();
  const secure = servedOverHttps(h);
  const origin = originFrom(h);
  const p = await principalForSession((await getServerSession(authOptions(secure))) as SessionIds | null, origin.ip);
  // Who and from where, for the audit log of what this request changes (docs/security.md "Audit log").
  if (p) p.origin = origin;
  return p;
});

/**
 * Signed in, whatever the role. Pages, actions and handlers check a permission instead
 * (requirePermission in ./guard.ts, which calls this): the permission walk
 * (test/dashboard-permissions.test.ts) fails for one that does not.
 */
export async function requirePrincipal(): Promise<Principal> {
  const p = await getSessionPrincipal();
  if (!p) redirect("/login");
  return p;
}

/** As requirePrincipal, with a 401 instead of a redirect (./guard.ts requireApiPermission). */
export async function requireApiPrincipal(): Promise<Principal> {
  const p = await getSessionPrincipal();
  if (!p) throw new ApiError("UNAUTHORIZED", "Sign in to continue");
  return p;
}
