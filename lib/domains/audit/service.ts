// Reading the audit log (docs/security.md "Audit log"): the account's entries, newest first,
// with the filters of AuditFilters. A member needs the "audit" permission; an API token must
// be global (the route says so too: docs/api/audit-events.md).
import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import type { AuditEvent, Prisma } from "@/lib/generated/prisma/client";
import { type AuditEventListQuery, type AuditFilters, fromOf, toOf } from "./schemas";

const NEWEST_FIRST = [
  { createdAt: "desc" },
  { id: "desc" },
] as const satisfies Prisma.AuditEventOrderByWithRelationInput[];

function assertMayRead(p: Principal): void {
  if (p.via === "session") {
    assertPermission(p, "audit");
    return;
  }
  if (p.scopedSenderId) {
    throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "The audit log requires a global token, not a number-scoped one");
  }
}

/** The tenant and the filters as a where: every read of the log goes through it. */
function whereOf(p: Principal, f: AuditFilters): Prisma.AuditEventWhereInput {
  const where: Prisma.AuditEventWhereInput = { customerId: p.customerId };
  if (f.action) where.action = f.action;
  if (f.targetUid) where.targetUid = f.targetUid;
  if (f.actor) {
    const actor = f.actor.trim();
    where.OR =
      actor === "system" || actor === "operator"
        ? [{ actorType: actor }]
        : [{ actorEmail: actor.toLowerCase() }, { tokenPrefix: actor }];
  }
  if (f.dateFrom || f.dateTo) {
    where.createdAt = {
      ...(f.dateFrom ? { gte: fromOf(f.dateFrom) } : {}),
      ...(f.dateTo ? { lt: toOf(f.dateTo) } : {}),
    };
  }
  return where;
}

export async function listAuditEvents(
  p: Principal,
  query: AuditEventListQuery,
): Promise<{ events: AuditEvent[]; total: number }> {
  assertMayRead(p);
  const where = whereOf(p, query);
  const [events, total] = await Promise.all([
    db.auditEvent.findMany({ where, orderBy: NEWEST_FIRST, ...skipTake(query) }),
    db.auditEvent.count({ where }),
  ]);
  return { events, total };
}

/** Batches for the CSV export, newest first (keyset paging: stable while new entries arrive). */
export async function* auditEventBatches(p: Principal, filters: AuditFilters, batchSize = 1000) {
  assertMayRead(p);
  const where = whereOf(p, filters);
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const page: AuditEvent[] = await db.auditEvent.findMany({
      where: after
        ? {
            AND: [
              where,
              {
                OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
              },
            ],
          }
        : where,
      orderBy: NEWEST_FIRST,
      take: batchSize,
    });
    if (page.length > 0) yield page;
    if (page.length < batchSize) return;
    const last = page[page.length - 1] as AuditEvent;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
