// broadcast.started, broadcast.paused and broadcast.completed (catalog group "Broadcasts"),
// emitted through the event pipeline in the transaction of the state change. Each carries
// data.broadcastUid; the dedupe key makes one event per change.
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { emitEvent } from "@/lib/domains/events/emit";
import type { Sender } from "@/lib/generated/prisma/client";

export type BroadcastEventType = "broadcast.started" | "broadcast.paused" | "broadcast.completed";

export async function broadcastEvent(
  tx: Tx,
  sender: Pick<Sender, "id" | "customerId" | "phoneNumber" | "phoneNumberId">,
  type: BroadcastEventType,
  broadcastUid: string,
  data: Record<string, unknown>,
): Promise<void> {
  const at = new Date();
  await emitEvent(tx, {
    sender: {
      id: sender.id,
      customerId: sender.customerId,
      phoneNumber: sender.phoneNumber,
      phoneNumberId: sender.phoneNumberId,
    },
    type,
    // started and completed happen once per broadcast; a broadcast can pause many times.
    dedupeKey: type === "broadcast.paused" ? `${type}:${broadcastUid}:${newId("")}` : `${type}:${broadcastUid}`,
    createdAt: at,
    data: { broadcastUid, ...data, timestamp: at.toISOString() },
  });
}
