// The routes only the dashboard's browser code calls (docs/dashboard.md "Data the browser
// holds"): definitions as the public API's are (lib/api/route-definition.ts, `session: "only"`),
// served by the same router under /api/dashboard to the signed-in member holding each one's
// permission, and never to a token. The public table (route-table.ts) is what OpenAPI, the
// endpoints page and the security suite walk; this one the dashboard's permission walk does too.
import { broadcastsDashboardRoutes } from "./dashboard-routes/broadcasts";
import { exportDashboardRoutes } from "./dashboard-routes/exports";
import { inboxDashboardRoutes } from "./dashboard-routes/inbox";
import { liveDashboardRoutes } from "./dashboard-routes/live";
import { messagesDashboardRoutes } from "./dashboard-routes/messages";
import { webhooksDashboardRoutes } from "./dashboard-routes/webhooks";
import type { AnyRoute } from "./route-definition";

export const dashboardRoutes: readonly AnyRoute[] = [
  ...inboxDashboardRoutes,
  ...exportDashboardRoutes,
  ...messagesDashboardRoutes,
  ...broadcastsDashboardRoutes,
  ...webhooksDashboardRoutes,
  ...liveDashboardRoutes,
];
