// The audit log for a security team's tools (docs/api/audit-events.md): the account's
// entries, newest first, page-based. A global token only: a number-scoped one answers
// TOKEN_SCOPE_NOT_ALLOWED (the router checks tokenScope before the handler runs).
import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/audit/examples";
import { AuditEventListPublic, AuditEventListQuery } from "@/lib/domains/audit/schemas";
import { toPublicAuditEvent } from "@/lib/domains/audit/serializers";
import { listAuditEvents } from "@/lib/domains/audit/service";
import { type AnyRoute, ok, route } from "../route-definition";

export const auditRoutes: AnyRoute[] = [
  route({
    versions: ["v2", "v3"],
    limit: "global",
    tag: "Audit log",
    tokenScope: "global",
    method: "GET",
    path: "/audit-events",
    permission: "audit",
    example: examples.getAuditEvents,
    summary: "List audit events",
    description: "The account's audit events, newest first; filter by action, actor, targetUid, dateFrom and dateTo.",
    query: AuditEventListQuery,
    response: AuditEventListPublic,
    handler: async ({ principal, query }) => {
      const { events, total } = await listAuditEvents(principal, query);
      return ok("Audit events retrieved", pageOf("auditEvents", events.map(toPublicAuditEvent), query, total));
    },
  }),
];
