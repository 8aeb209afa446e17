// What Next.js hands the dashboard's handlers, server actions and pages during a request (the
// headers, the next-auth session, the signed-in principal), as one double that every file of the
// "suite (next request)" project shares (vitest.config.ts). test/setup-next-request.ts puts it in
// place of next/headers, next-auth's getServerSession, next/cache and lib/dashboard/session.ts,
// and resets it before each file; a test sets what its request carries.
//
// One double, not a vi.mock per file: a file's own module mock holds only in a process of its own
// (the mock applies to modules loaded after it, and a shared process has loaded the app
// already), and a process per file loads the whole app again (docs/development.md "Tests"). With
// the same double in every file of the project, its files share one process.
import type { NextAuthOptions } from "next-auth";
import type { Principal } from "@/lib/domains/auth/principal";
import type { SessionIds } from "@/lib/domains/security/session-principal";

type Cookies = { get: () => undefined; getAll: () => never[]; has: () => boolean };

export const nextRequest = {
  /** next/headers' headers(): what the request carried. */
  headers: new Headers({ host: "dash.test" }),
  /** next-auth's getServerSession(): the session's ids, or null (nobody signed in). */
  session: null as (Partial<SessionIds> & { userId: string; customerId: string }) | null,
  /** Instead of `session`: getServerSession worked out from next-auth's options (a real JWT cookie, say). */
  getServerSession: null as ((options: NextAuthOptions) => Promise<unknown>) | null,
  /**
   * lib/dashboard/session.ts's requireApiPrincipal() and requirePrincipal(): this principal when
   * set; otherwise the real functions, which read `session` through the real session code.
   */
  principal: undefined as Principal | undefined,
  /** How many times a dashboard handler asked requireApiPrincipal() for the principal. */
  principalAsked: 0,
};

const NO_COOKIES: Cookies = { get: () => undefined, getAll: () => [], has: () => false };
/** next/headers' cookies(): none (the session comes from `session`). */
export const noCookies = async (): Promise<Cookies> => NO_COOKIES;

/** Nobody signed in, a request to dash.test with no other header. */
export function resetNextRequest(): void {
  nextRequest.headers = new Headers({ host: "dash.test" });
  nextRequest.session = null;
  nextRequest.getServerSession = null;
  nextRequest.principal = undefined;
  nextRequest.principalAsked = 0;
}
