// The public API's routes marked `session: true` (lib/api/route-definition.ts) and the
// dashboard's own (`session: "only"`, lib/api/dashboard-route-table.ts), served to the
// dashboard's browser code under /api/dashboard (docs/dashboard.md "Data the browser holds"):
// the router does the work, this file hands it the dashboard's session. A
// mutation must come from our own pages (same origin, JSON; multipart for an upload) before the
// session is read; then the member must hold the route's permission (lib/dashboard/guard.ts).
import { nextSessionApiHandler } from "@/lib/api/next-mount";
import { requireApiPermission } from "@/lib/dashboard/guard";
import { guardMutation, guardSameOrigin } from "@/lib/dashboard/request-guard";

export const dynamic = "force-dynamic";

const handle = nextSessionApiHandler({
  guard: (request, body) => (body === "multipart" ? guardSameOrigin(request) : guardMutation(request)),
  member: requireApiPermission,
});

// Every method: a path or method no session route serves gets the router's 404 or 405 envelope,
// as app/api/[...path] answers under `next start` alone (test/next-api-catch-all.test.ts).
export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
