// GET: this tab's live stream (Server-Sent Events) of the notices its member may receive
// (docs/inbox.md "Live updates"). Any signed-in member may open it; what each notice needs
// (the inbox, broadcasts, the member's senders) is checked per notice by lib/domains/live.

import { dashboardHandler } from "@/lib/dashboard/handler";
import { openLiveStream } from "@/lib/domains/live/stream";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("dashboard", async (p) => {
  return new Response(openLiveStream(p), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: Next's compression (and any proxy) must pass each event on as written.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
});
