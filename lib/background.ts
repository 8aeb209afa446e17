// Work that runs beside the web server in the app process (embedded mode: the only
// process allowed to open .data/), or standalone in `npm run worker` (scripts/worker.ts).
// One table: each entry is a worker definition for the one loop (lib/core/worker-loop.ts,
// docs/architecture.md "Background work"), loaded when the process starts it.
import { startWorker, type Worker, type WorkerDefinition } from "@/lib/core/worker-loop";

export type Background = { stop: () => Promise<void> };

export type BackgroundOptions = {
  /** Skip the callback processor (a delivery-only worker). */
  deliveriesOnly?: boolean;
  /** Skip everything but the callback processor (a callback-processing-only worker). */
  callbacksOnly?: boolean;
  /** Work only for these customers (a dedicated worker; see each worker's customerIds). */
  customerIds?: string[];
};

type Entry = {
  /** "callbacks": the callback processor, skipped by a delivery-only worker; "rest": skipped by a callbacks-only one. */
  part: "callbacks" | "rest";
  define: (o: BackgroundOptions) => Promise<WorkerDefinition>;
};

const WORKERS: readonly Entry[] = [
  // Provider callbacks (docs/event-pipeline.md): billing, conversations, events.
  { part: "callbacks", define: async () => (await import("@/lib/ingest/processor")).callbackProcessor() },
  // Webhook deliveries (docs/event-pipeline.md "Delivery worker").
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/webhooks/worker")).deliveryWorker({ customerIds: o.customerIds }),
  },
  // Sends queued while a sender was reconnecting go out once it is connected, even when no request drained them.
  { part: "rest", define: async () => (await import("@/lib/domains/messaging/reconnect-queue")).reconnectDrainer() },
  // Sends interrupted mid-flight become "unknown" (docs/messaging.md).
  { part: "rest", define: async () => (await import("@/lib/domains/messaging/send-reconciler")).sendReconciler() },
  // Chatbot replies (docs/chatbots.md): the outbox rows the callback processor wrote.
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/chatbots/worker")).chatbotWorker({ customerIds: o.customerIds }),
  },
  // Webhook recoveries (docs/webhook-recovery.md): re-queue a window's failed deliveries.
  {
    part: "rest",
    define: async (o) =>
      (await import("@/lib/domains/webhooks/recovery-worker")).recoveryWorker({ customerIds: o.customerIds }),
  },
  // Emails (docs/email.md): invitations and notices from the mail outbox.
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/mail/worker")).mailWorker({ customerIds: o.customerIds }),
  },
  // Inbound media (docs/media.md "Inbound media"): the files contacts send, fetched from the provider.
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/media/fetch-worker")).mediaWorker({ customerIds: o.customerIds }),
  },
  // Media retention (docs/media.md "Retention"): files past MEDIA_RETENTION_DAYS, hourly.
  { part: "rest", define: async () => (await import("@/lib/domains/media/retention")).mediaRetention() },
  // Audit log retention (docs/security.md "Audit log"): entries past AUDIT_RETENTION_DAYS.
  { part: "rest", define: async () => (await import("@/lib/domains/audit/retention")).auditRetention() },
  // Spent sessions, reset links and invitations (docs/security.md "What is kept").
  { part: "rest", define: async () => (await import("@/lib/domains/security/pruning")).credentialPruning() },
  // Automation rules (docs/automation.md): the events, timers and sends the ingest and the rules scheduled.
  {
    part: "rest",
    define: async (o) =>
      (await import("@/lib/domains/automation/worker")).automationWorker({ customerIds: o.customerIds }),
  },
  // CSAT surveys (docs/reports.md "CSAT"): the surveys a person's close scheduled.
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/csat/send")).csatWorker({ customerIds: o.customerIds }),
  },
  // The support heatmap's inbound counts (docs/reports.md "How the heatmap counts"): the triggers' rows folded per bucket.
  { part: "rest", define: async () => (await import("@/lib/domains/support/inbound-counts")).inboundCountFolding() },
  // SLA timers (docs/reports.md "SLA policies"): breaches recorded once when a due time passes.
  {
    part: "rest",
    define: async (o) => (await import("@/lib/domains/sla/worker")).slaWorker({ customerIds: o.customerIds }),
  },
  // Broadcasts (docs/broadcasts.md): scheduled starts, paced batches, interrupted sends.
  {
    part: "rest",
    define: async (o) =>
      (await import("@/lib/domains/broadcasts/worker")).broadcastWorker({ customerIds: o.customerIds ?? null }),
  },
];

/**
 * Starts the workers on background work's own pool (lib/core/db-context.ts: no statement timeout,
 * not counted against any customer's share of the request connections); each loop, and what
 * it starts, stays there.
 */
export async function startBackgroundWork(options: BackgroundOptions = {}): Promise<Background> {
  const { asBackgroundWork } = await import("@/lib/core/db-context");
  return asBackgroundWork(() => startAll(options));
}

async function startAll(options: BackgroundOptions): Promise<Background> {
  const { getDb } = await import("@/lib/db");
  await getDb();
  const skipped = options.deliveriesOnly ? "callbacks" : options.callbacksOnly ? "rest" : null;
  const workers: Worker[] = [];
  for (const entry of WORKERS) {
    if (entry.part === skipped) continue;
    workers.push(startWorker(await entry.define(options)));
  }
  return {
    stop: async () => {
      await Promise.allSettled(workers.map((w) => w.stop()));
    },
  };
}
