// A broadcast's progress for the open dashboards (docs/inbox.md "Live updates"): after each
// batch the dispatcher publishes the counts, so a broadcast's page moves without a reload.
// One grouped count per batch (at most 100 recipients), never per recipient.
import { db } from "@/lib/db";
import { publishLive } from "@/lib/domains/live/publish";
import type { Broadcast } from "@/lib/generated/prisma/client";

const SENT = ["accepted", "sent", "delivered", "read", "replied"];

/**
 * Publishes broadcast.progress with the broadcast's current counts, when a batch sent
 * something (`moved`) or the broadcast is no longer sending (completed, paused, cancelled).
 */
export async function publishProgress(
  b: Pick<Broadcast, "id" | "customerId" | "senderId">,
  moved: boolean,
): Promise<void> {
  const [row] = await db.broadcast.findMany({ where: { id: b.id }, select: { status: true } });
  if (!moved && row?.status === "SENDING") return;
  const groups = await db.broadcastRecipient.groupBy({ by: ["status"], where: { broadcastId: b.id }, _count: true });
  const count = (statuses: string[]) =>
    groups.filter((g) => statuses.includes(g.status)).reduce((n, g) => n + g._count, 0);
  await publishLive(db, b.customerId, [
    {
      kind: "broadcast.progress",
      senderId: b.senderId,
      broadcastUid: b.id,
      status: row?.status ?? "SENDING",
      total: groups.reduce((n, g) => n + g._count, 0),
      sent: count(SENT),
      failed: count(["failed"]),
    },
  ]);
}
