// The dashboard's live stream (session: "only", lib/api/route-definition.ts): this tab's
// Server-Sent Events of the notices its member may receive (docs/inbox.md "Live updates"),
// read by EventSource (components/dashboard/use-live-updates.ts). Any signed-in member may open
// it; what each notice needs (the inbox, broadcasts, the member's senders) is checked per notice
// by lib/domains/live. The answer is a raw Response whose body is the stream: the router sets
// no timeout, the browser going away cancels it (the hub lets the client go), and the hub's
// process-wide timer and subscription belong to no request (lib/domains/live/hub.ts).
import { openLiveStream } from "@/lib/domains/live/stream";
import { type AnyRoute, route } from "../route-definition";
import { dashboardOnly } from "./common";

export const liveDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Live",
    method: "GET",
    path: "/live",
    // Signed in at all: a permission of the members' table no token holds (so not `permission`).
    sessionPermission: "dashboard",
    summary: "This tab's live stream",
    description:
      "text/event-stream: `ready`, then the notices this member may receive, `resync`, `ping` (the heartbeat) and `end` with its reason (docs/inbox.md).",
    handler: async ({ principal }) =>
      new Response(openLiveStream(principal), {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          // no-transform: Next's compression (and any proxy) must pass each event on as written.
          "Cache-Control": "no-cache, no-transform",
          "X-Accel-Buffering": "no",
        },
      }),
  }),
];
