// Retention of media (docs/media.md "Retention"): files past MEDIA_RETENTION_DAYS (their
// record's expiresAt) are deleted by the hourly pass of the background work (lib/background.ts)
// and by `media:gc`. Each record becomes `expired` and gives its reference back; the stored
// file goes with the account's last reference, and its size leaves the account's usage. The
// messages keep the file's facts and say expired.
import { log } from "@/lib/core/log";
import { IDLE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { dropReference } from "./objects";

const BATCH = 500;
/**
 * Records whose file is kept. A pending download or an upload being stored is left to finish
 * (its worker's writes are fenced by the status); expired, deleted and unavailable ones hold none.
 */
const KEPT = ["ready"];

export type MediaGcResult = { expired: number; freedBytes: number };

/** Expires every record past its retention at `now`; how many, and the bytes freed from the accounts' usage. */
export async function pruneExpiredMedia(now = new Date()): Promise<MediaGcResult> {
  const result: MediaGcResult = { expired: 0, freedBytes: 0 };
  for (;;) {
    const due = await db.media.findMany({
      where: { expiresAt: { lte: now }, status: { in: KEPT } },
      select: { id: true, customerId: true },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
    });
    for (const media of due) {
      const before = await usage(media.customerId);
      await dropReference(media.id, media.customerId, "expired");
      result.freedBytes += Math.max(0, before - (await usage(media.customerId)));
      result.expired += 1;
    }
    if (due.length < BATCH) return result;
  }
}

async function usage(customerId: string): Promise<number> {
  const row = await db.mediaUsage.findUnique({ where: { customerId }, select: { bytes: true } });
  return Number(row?.bytes ?? 0);
}

/** The hourly pass (lib/background.ts): at start, then every `intervalMs`. */
export function mediaRetention(intervalMs = 3_600_000): WorkerDefinition {
  return {
    name: "media retention",
    pollMs: intervalMs,
    pass: async () => {
      const { expired, freedBytes } = await pruneExpiredMedia();
      if (expired > 0) log.info({ expired, freedBytes }, "media retention: files past retention deleted");
      return IDLE;
    },
  };
}
