// The one route table of the public API. Each domain keeps its definitions in
// lib/api/routes/<domain>.ts (the shape is lib/api/route-definition.ts); OpenAPI and the
// security suite read this list.
import type { AnyRoute } from "./route-definition";
import { auditRoutes } from "./routes/audit";
import { automationRoutes } from "./routes/automations";
import { billingRoutes } from "./routes/billing";
import { blacklistRoutes } from "./routes/blacklist";
import { broadcastRoutes } from "./routes/broadcasts";
import { chatbotRoutes } from "./routes/chatbots";
import { contactRoutes } from "./routes/contacts";
import { conversationRoutes } from "./routes/conversations";
import { docsRoutes } from "./routes/docs";
import { labelRoutes } from "./routes/labels";
import { mediaRoutes } from "./routes/media";
import { messagingRoutes } from "./routes/messaging";
import { providerNodeRoutes } from "./routes/provider-nodes";
import { segmentRoutes } from "./routes/segments";
import { senderRoutes } from "./routes/senders";
import { slaPolicyRoutes } from "./routes/sla-policies";
import { supportReportRoutes } from "./routes/support-reports";
import { webhookRecoveryRoutes } from "./routes/webhook-recovery";
import { webhookRoutes } from "./routes/webhooks";

export const routes: readonly AnyRoute[] = [
  ...billingRoutes,
  ...contactRoutes,
  ...blacklistRoutes,
  ...senderRoutes,
  ...webhookRoutes,
  ...webhookRecoveryRoutes,
  ...chatbotRoutes,
  ...automationRoutes,
  ...broadcastRoutes,
  ...segmentRoutes,
  ...messagingRoutes,
  ...conversationRoutes,
  ...labelRoutes,
  ...supportReportRoutes,
  ...slaPolicyRoutes,
  ...auditRoutes,
  ...mediaRoutes,
  ...providerNodeRoutes,
  ...docsRoutes(() => routes),
];
