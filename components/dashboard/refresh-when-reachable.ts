// A page's fallback poll re-renders on the server only while the server that renders it
// answers: Next's router.refresh() against a server that is down or still starting (a
// restart, a deploy) gives up on the document and navigates to the URL for real, which leaves
// the browser's own "This page couldn't load", or the front server's "The dashboard is
// starting" answer (lib/http/front-server.ts), in the tab for good. So the probe asks Next
// itself: /api/health is answered by the front server of `npm start` before Next is up
// (docs/deployment.md "Health checks"), next-auth's CSRF endpoint only by Next, from a cookie,
// without the database. Once the server is back, the live stream's `ready` re-renders the page
// (components/dashboard/use-live-updates.ts).
import type { useRouter } from "next/navigation";

const PROBE_TIMEOUT_MS = 3_000;
/** Served by Next (app/api/auth), never by the front server: it answers once Next does. */
const NEXT_PROBE = "/api/auth/csrf";

export async function refreshWhenReachable(router: ReturnType<typeof useRouter>): Promise<void> {
  try {
    const res = await fetch(NEXT_PROBE, { cache: "no-store", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (res.ok) router.refresh();
  } catch {
    // Unreachable: the next tick or the stream's return refreshes.
  }
}
