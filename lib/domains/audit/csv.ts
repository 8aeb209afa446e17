// The audit log as CSV (docs/security.md "Audit log"): the filtered entries, newest first,
// streamed batch by batch (the next batch is read only when the reader took the last).
import { stringify } from "csv-stringify/sync";
import type { Principal } from "@/lib/domains/auth/principal";
import type { AuditFilters } from "./schemas";
import { actorLabel, toPublicAuditEvent } from "./serializers";
import { auditEventBatches } from "./service";

export const AUDIT_CSV_COLUMNS = [
  "createdAt",
  "action",
  "actorType",
  "actor",
  "targetType",
  "targetUid",
  "ip",
  "userAgent",
  "details",
  "auditEventUid",
] as const;

function toCsv(rows: ReturnType<typeof toPublicAuditEvent>[], header: boolean): string {
  return stringify(
    rows.map((e) => ({
      createdAt: e.createdAt,
      action: e.action,
      actorType: e.actor.type,
      actor: actorLabel(e.actor),
      targetType: e.target.type,
      targetUid: e.target.uid,
      ip: e.ip ?? "",
      userAgent: e.userAgent ?? "",
      details: JSON.stringify(e.details),
      auditEventUid: e.auditEventUid,
    })),
    { header, columns: [...AUDIT_CSV_COLUMNS] },
  );
}

export function streamAuditCsv(p: Principal, filters: AuditFilters, batchSize?: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = auditEventBatches(p, filters, batchSize);
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await batches.next();
        const rows = next.done ? [] : next.value.map(toPublicAuditEvent);
        if (first || rows.length > 0) controller.enqueue(encoder.encode(toCsv(rows, first)));
        first = false;
        if (next.done) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
