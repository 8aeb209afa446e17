// Writing an audit entry (docs/security.md "Audit log"): always with the caller's
// transaction client, so the entry and the change it records commit or roll back together.
// A change that fails writes no entry; an entry that fails to write fails the change.
import type { Tx } from "@/lib/db";
import type { AuditAction, AuditTarget } from "./actions";
import type { AuditActor } from "./actor";
import { type AuditDetails, redactDetails } from "./redact";

export type AuditEntry = {
  customerId: string;
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  ip?: string | null;
  userAgent?: string | null;
  details?: AuditDetails;
};

/** Longest user agent kept (a header can be kilobytes; the start says what the client is). */
const USER_AGENT_MAX = 512;

export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  await tx.auditEvent.create({
    data: {
      customerId: entry.customerId,
      action: entry.action,
      actorType: actor.type,
      actorEmail: actor.type === "member" ? actor.email : null,
      actorUserId: actor.type === "member" ? actor.userId : null,
      tokenId: actor.type === "api_token" ? actor.tokenId : null,
      tokenName: actor.type === "api_token" ? actor.tokenName : null,
      tokenPrefix: actor.type === "api_token" ? actor.tokenPrefix : null,
      targetType: entry.target.type,
      targetUid: entry.target.uid,
      ip: entry.ip && entry.ip !== "unknown" ? entry.ip : null,
      userAgent: entry.userAgent?.slice(0, USER_AGENT_MAX) || null,
      details: redactDetails(entry.details ?? {}),
    },
  });
}
