// Work that runs beside the web server in the app process (embedded mode: the only
// process allowed to open .data/): the provider-callback processor, the webhook
// delivery worker and the reconnect-queue safety net (sends queued while a sender was
// reconnecting go out once it is connected, even when no request drained them), the
// send reconciliation (sends interrupted mid-flight become "unknown") and the chatbot
// worker (bot replies from the outbox), the webhook recovery worker and the email worker
// (the mail outbox: lib/domains/mail/worker.ts), the audit log's retention pruning, the pruning of
// spent sessions, reset links and invitations, and the
// broadcast dispatcher (lib/domains/broadcasts/dispatcher.ts).
// `npm run worker` (scripts/worker.ts) runs the same standalone.
export type Background = { stop: () => Promise<void> };

export type BackgroundOptions = {
  /** Skip the callback processor (a delivery-only worker). */
  deliveriesOnly?: boolean;
  /** Skip the delivery worker (a callback-processing-only worker). */
  callbacksOnly?: boolean;
  /** Deliver only for these customers (see startDeliveryWorker). */
  customerIds?: string[];
};

export async function startBackgroundWork(options: BackgroundOptions = {}): Promise<Background> {
  const { getDb } = await import("@/lib/db");
  await getDb();
  const { startCallbackProcessor } = await import("@/lib/ingest/processor");
  const { startDeliveryWorker } = await import("@/lib/domains/webhooks/worker");
  const processor = options.deliveriesOnly ? { stop: async () => {} } : startCallbackProcessor();
  const worker = options.callbacksOnly
    ? { stop: async () => {} }
    : startDeliveryWorker({ customerIds: options.customerIds });
  const { startReconnectDrainer } = await import("@/lib/domains/messaging/reconnect-queue");
  const stopDrainer = options.callbacksOnly ? async () => {} : startReconnectDrainer();
  const { startSendReconciler } = await import("@/lib/domains/messaging/send-reconciler");
  const stopReconciler = options.callbacksOnly ? async () => {} : startSendReconciler();
  // Chatbot replies (docs/chatbots.md): the outbox rows the callback processor wrote.
  const { startChatbotWorker } = await import("@/lib/domains/chatbots/worker");
  const chatbots = options.callbacksOnly
    ? { stop: async () => {} }
    : startChatbotWorker({ customerIds: options.customerIds });
  // Webhook recoveries (docs/webhook-recovery.md): re-queue a window's failed deliveries.
  const { startRecoveryWorker } = await import("@/lib/domains/webhooks/recovery-worker");
  const recoveries = options.callbacksOnly
    ? { stop: async () => {} }
    : startRecoveryWorker({ customerIds: options.customerIds });
  // Emails (docs/email.md): invitations and notices from the mail outbox.
  const { startMailWorker } = await import("@/lib/domains/mail/worker");
  const mail = options.callbacksOnly ? { stop: async () => {} } : startMailWorker({ customerIds: options.customerIds });
  // Audit log retention (docs/security.md "Audit log"): entries past AUDIT_RETENTION_DAYS.
  const { startAuditRetention } = await import("@/lib/domains/audit/retention");
  const audit = options.callbacksOnly ? { stop: async () => {} } : startAuditRetention();
  // Spent sessions, reset links and invitations (docs/security.md "What is kept").
  const { startPeriodic } = await import("@/lib/core/periodic");
  const { pruneSpentCredentials } = await import("@/lib/domains/security/pruning");
  const credentials = options.callbacksOnly
    ? { stop: async () => {} }
    : startPeriodic("spent credentials pruning", 3_600_000, () => pruneSpentCredentials());
  // Broadcasts (docs/broadcasts.md): scheduled starts, paced batches, interrupted sends.
  const { startBroadcastWorker } = await import("@/lib/domains/broadcasts/dispatcher");
  const broadcasts = options.callbacksOnly
    ? { stop: async () => {} }
    : startBroadcastWorker({ customerIds: options.customerIds ?? null });
  return {
    stop: async () => {
      await Promise.allSettled([
        broadcasts.stop(),
        audit.stop(),
        credentials.stop(),
        mail.stop(),
        stopDrainer(),
        stopReconciler(),
        processor.stop(),
        worker.stop(),
        chatbots.stop(),
        recoveries.stop(),
      ]);
    },
  };
}
