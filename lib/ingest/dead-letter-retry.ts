// Puts dead provider callbacks back (`callbacks:retry ID|--all`): the other half of the
// dead-letter list (dead-letters.ts), the half that runs the callback processor.
import { db } from "@/lib/db";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { runOne } from "./process-batch";

export type RetryOutcome = { id: string; result: "processed" | "failed" | "not_dead"; error?: string };

/**
 * Puts dead callbacks back in the queue (attempts reset) and applies each at once; one that
 * fails again stays queued for the processor's own retries (and comes back here after them).
 */
export async function retryDeadCallbacks(ids: string[] | "all"): Promise<RetryOutcome[]> {
  const targets =
    ids === "all"
      ? (await db.providerCallback.findMany({ where: { deadAt: { not: null } }, select: { id: true } })).map(
          (r) => r.id,
        )
      : ids;
  const outcomes: RetryOutcome[] = [];
  let events = 0;
  for (const id of targets) {
    const { count } = await db.providerCallback.updateMany({
      where: { id, deadAt: { not: null } },
      data: { deadAt: null, processedAt: null, retryAt: null, attempts: 0 },
    });
    if (count === 0) {
      outcomes.push({ id, result: "not_dead" });
      continue;
    }
    try {
      const r = await runOne(1, id);
      events += r.events;
      outcomes.push({ id, result: "processed" });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.providerCallback.updateMany({
        where: { id, processedAt: null },
        data: { attempts: { increment: 1 }, error: message.slice(0, 1000) },
      });
      outcomes.push({ id, result: "failed", error: message.slice(0, 300) });
    }
  }
  if (events > 0) deliveriesQueued();
  return outcomes;
}
