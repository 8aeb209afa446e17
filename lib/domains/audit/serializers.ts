// The public shape of an audit entry (docs/api/audit-events.md): every field named here.
import type { AuditEvent } from "@/lib/generated/prisma/client";
import type { AuditEventPublic } from "./schemas";

export function toPublicAuditEvent(row: AuditEvent): AuditEventPublic {
  const actor: AuditEventPublic["actor"] = { type: row.actorType };
  if (row.actorType === "member" && row.actorEmail) actor.email = row.actorEmail;
  if (row.actorType === "api_token") {
    if (row.tokenName) actor.tokenName = row.tokenName;
    if (row.tokenPrefix) actor.tokenPrefix = row.tokenPrefix;
  }
  return {
    auditEventUid: row.id,
    action: row.action,
    actor,
    target: { type: row.targetType, uid: row.targetUid },
    ip: row.ip,
    userAgent: row.userAgent,
    details: (row.details ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}

/** How the dashboard and the CSV name an actor in one cell. */
export function actorLabel(actor: AuditEventPublic["actor"]): string {
  if (actor.type === "member") return actor.email ?? "member";
  if (actor.type === "api_token") return `token ${actor.tokenName ?? ""} (${actor.tokenPrefix ?? ""})`.trim();
  return actor.type;
}
