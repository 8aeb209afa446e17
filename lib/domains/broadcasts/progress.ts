// A broadcast's progress for the open dashboards (docs/inbox.md "Live updates"): after each
// batch the dispatcher publishes the counts, so a broadcast's page moves without a reload.
// One grouped count at most once a second per broadcast (dispatcher.ts PROGRESS_EVERY_MS), never per recipient.
import { hotRows } from "@/lib/db";
import { plainDb } from "@/lib/db/plain-tx";
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
  const [row] = await hotRows<{ status: string }>({
    text: `SELECT status FROM "Broadcast" WHERE id = $1`,
    values: [b.id],
  });
  if (!moved && row?.status === "SENDING") return;
  const groups = await hotRows<{ status: string; n: number }>({
    text: `SELECT status::text AS status, count(*)::int AS n FROM "BroadcastRecipient" WHERE "broadcastId" = $1 GROUP BY status`,
    values: [b.id],
  });
  const count = (statuses: string[]) => groups.filter((g) => statuses.includes(g.status)).reduce((n, g) => n + g.n, 0);
  await publishLive(plainDb, b.customerId, [
    {
      kind: "broadcast.progress",
      senderId: b.senderId,
      broadcastUid: b.id,
      status: row?.status ?? "SENDING",
      total: groups.reduce((n, g) => n + g.n, 0),
      sent: count(SENT),
      failed: count(["failed"]),
    },
  ]);
}
