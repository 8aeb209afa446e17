// The reconnect queue: sends accepted while a sender is RECONNECTING wait as queued
// messages (checked and recorded by the send pipeline, send.ts) and go out through its
// dispatch stage, oldest first, when it is CONNECTED again.

import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { IDLE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { wakeupsOn } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { SENDING } from "@/lib/domains/messages/rows";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import type { ConnectionStatus } from "@/lib/generated/prisma/client";
import { dispatchRecorded } from "./dispatch";

export type DrainReport = { sent: number; failed: number };

/** Changes a sender's connection status; reconnecting drains its queue. */
export async function setSenderConnection(
  p: Principal,
  senderId: string,
  status: ConnectionStatus,
): Promise<DrainReport> {
  const { count } = await db.sender.updateMany({
    where: { id: senderId, customerId: p.customerId },
    data: { connectionStatus: status },
  });
  if (count === 0) throw new ApiError("SENDER_NOT_FOUND", "Sender not found for this customer");
  return status === "CONNECTED" ? drainReconnectQueue(p.customerId, senderId) : { sent: 0, failed: 0 };
}

/** Sends the queued messages of a CONNECTED sender, oldest first; each is claimed once. */
export async function drainReconnectQueue(customerId: string, senderId: string): Promise<DrainReport> {
  const report: DrainReport = { sent: 0, failed: 0 };
  const sender = await db.sender.findFirst({ where: { id: senderId, customerId } });
  if (sender?.connectionStatus !== "CONNECTED" || !sender.phoneNumberId) return report;
  for (;;) {
    const next = await db.message.findFirst({
      where: { customerId, senderId, queued: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    if (!next) return report;
    const { count } = await db.message.updateMany({
      where: { id: next.id, customerId, queued: true },
      data: { queued: false, status: SENDING },
    });
    if (count === 0) continue; // another drainer took it
    try {
      // The pipeline's dispatch stage: the message passed its checks when it was queued.
      await dispatchRecorded({ ...next, queued: false, status: SENDING }, providerSender(sender));
      report.sent += 1;
    } catch (error) {
      report.failed += 1;
      log.warn({ err: error, messageUid: next.id }, "queued message could not be sent");
    }
  }
}

/** Drains every CONNECTED sender that still has queued messages (a periodic safety net). */
export async function drainAllReconnectQueues(): Promise<DrainReport> {
  const waiting = await db.message.findMany({
    where: { queued: true, sender: { connectionStatus: "CONNECTED" } },
    distinct: ["senderId"],
    select: { customerId: true, senderId: true },
  });
  const total: DrainReport = { sent: 0, failed: 0 };
  for (const w of waiting) {
    const r = await drainReconnectQueue(w.customerId, w.senderId);
    total.sent += r.sent;
    total.failed += r.failed;
  }
  return total;
}

/** Runs drainAllReconnectQueues on NOTIFY "reconnect" (a send queued) and every intervalMs (lib/background.ts). */
export function reconnectDrainer(intervalMs = 30_000): WorkerDefinition {
  return {
    name: "reconnect queue drain",
    wakeOn: [wakeupsOn("reconnect")],
    pollMs: intervalMs,
    pass: async () => {
      await drainAllReconnectQueues();
      return IDLE;
    },
  };
}
