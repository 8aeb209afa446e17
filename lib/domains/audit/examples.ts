// The OpenAPI example of GET /audit-events (docs/openapi.md "Adding a route"): one sample
// entry through the serializer the route answers with.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import type { AuditEvent } from "@/lib/generated/prisma/client";
import { toPublicAuditEvent } from "./serializers";

const row: AuditEvent = {
  id: "cmaudit0example0000000001",
  customerId: SAMPLE_CUSTOMER_ID,
  action: "token.created",
  actorType: "member",
  actorEmail: "owner@example.com",
  actorUserId: "cmuser00example00000000001",
  tokenId: null,
  tokenName: null,
  tokenPrefix: null,
  targetType: "token",
  targetUid: "cmtoken0example0000000001",
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  details: { name: "CI deploys", prefix: "swb_live_AbC1", scope: "global", senderId: null, expiresAt: null },
  createdAt: exampleTime(),
};

export const getAuditEvents = {
  message: "Audit events retrieved",
  response: listExample("auditEvents", [toPublicAuditEvent(row)]),
};
