// Retention of the audit log (docs/security.md "Audit log"): entries older than
// AUDIT_RETENTION_DAYS are deleted by the background worker (lib/background.ts), once at
// start and then every hour, in batches so one pass never holds a long lock on a big table.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { IDLE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";

const DAY_MS = 86_400_000;
const BATCH = 5_000;

/** Deletes the entries older than the retention; returns how many went. */
export async function pruneAuditEvents(now = new Date(), days = env().AUDIT_RETENTION_DAYS): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let total = 0;
  for (;;) {
    const old = await db.auditEvent.findMany({
      where: { createdAt: { lt: cutoff } },
      select: { id: true },
      take: BATCH,
    });
    if (old.length === 0) return total;
    const { count } = await db.auditEvent.deleteMany({ where: { id: { in: old.map((r) => r.id) } } });
    total += count;
    if (old.length < BATCH) return total;
  }
}

/** The hourly pruning pass of the background worker (lib/background.ts): at start, then every `intervalMs`. */
export function auditRetention(intervalMs = 3_600_000): WorkerDefinition {
  return {
    name: "audit log retention",
    pollMs: intervalMs,
    pass: async () => {
      const count = await pruneAuditEvents();
      if (count > 0) log.info({ count }, "audit log retention: rows past retention deleted");
      return IDLE;
    },
  };
}
