// The one route table of the public API. Each domain keeps its definitions in
// lib/api/routes/<domain>.ts (the shape is lib/api/route-definition.ts); OpenAPI and the
// security suite read this list.
import type { AnyRoute } from "./route-definition";
import { billingRoutes } from "./routes/billing";
import { chatbotRoutes } from "./routes/chatbots";
import { contactRoutes } from "./routes/contacts";
import { docsRoutes } from "./routes/docs";
import { messagingRoutes } from "./routes/messaging";
import { webhookRoutes } from "./routes/webhooks";

export const routes: readonly AnyRoute[] = [
  ...billingRoutes,
  ...contactRoutes,
  ...webhookRoutes,
  ...chatbotRoutes,
  ...messagingRoutes,
  ...docsRoutes(() => routes),
];
