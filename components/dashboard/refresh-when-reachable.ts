// A page's fallback poll re-renders on the server only while the server answers: Next's
// router.refresh() against a server that is down (a restart, a deploy) gives up on the
// document and navigates to the URL for real, which leaves the browser's own "This page
// couldn't load" in the tab for good. The health answer is small and never cached
// (docs/deployment.md "Health checks"); once the server is back, the live stream's `ready`
// re-renders the page (components/dashboard/use-live-updates.ts).
import type { useRouter } from "next/navigation";

const PROBE_TIMEOUT_MS = 3_000;

export async function refreshWhenReachable(router: ReturnType<typeof useRouter>): Promise<void> {
  try {
    const res = await fetch("/api/health", { cache: "no-store", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (res.ok) router.refresh();
  } catch {
    // Unreachable: the next tick or the stream's return refreshes.
  }
}
