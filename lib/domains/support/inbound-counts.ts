// The inbound counts the support heatmap sums (docs/reports.md "How the heatmap counts"): triggers on
// ConversationMessage add a row per insert statement and 15-minute bucket (migration
// 20261201040000_support_inbound_counts); this folds those rows into each bucket's one merged
// row, so a year's heatmap reads about 35,000 rows per sender rather than millions of messages.
// The counts are exact whether or not a fold has run: the heatmap sums every row of a bucket.
import { log } from "@/lib/core/log";
import { IDLE, MORE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { plainTransaction } from "@/lib/db/plain-tx";

/** Rows folded per statement: one pass never holds many row locks for long. */
const FOLD_BATCH = 10_000;

/**
 * Folds up to `batch` unmerged rows into their buckets' merged rows, in one statement: the rows
 * are deleted and their sums added, so a count is never in both. One folder at a time (an
 * advisory lock; another worker's pass skips): two folds deleting the same rows in different
 * orders could deadlock. Returns how many rows were folded, or null when another folder runs.
 */
export async function foldInboundCounts(batch = FOLD_BATCH): Promise<number | null> {
  return plainTransaction(async (tx) => {
    const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(hashtext('support-inbound-counts')) AS ok`;
    if (!lock?.ok) return null;
    const [row] = await tx.$queryRaw<{ folded: number }[]>`
      WITH fresh AS (
        DELETE FROM "SupportInboundCount" WHERE "id" IN (
          SELECT "id" FROM "SupportInboundCount" WHERE "merged" IS NULL ORDER BY "id" LIMIT ${batch})
        RETURNING "customerId", "senderId", "bucket", "inbound"),
      sums AS (
        SELECT "customerId", "senderId", "bucket", sum("inbound")::int AS inbound, count(*)::int AS n
        FROM fresh GROUP BY 1, 2, 3),
      merged AS (
        INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound", "merged")
        SELECT "customerId", "senderId", "bucket", inbound, true FROM sums ORDER BY 1, 2, 3
        ON CONFLICT ("customerId", "senderId", "bucket", "merged")
        DO UPDATE SET "inbound" = "SupportInboundCount"."inbound" + excluded."inbound"
        RETURNING 1)
      SELECT COALESCE((SELECT sum(n) FROM sums), 0)::int AS folded, (SELECT count(*) FROM merged)::int AS buckets`;
    return row?.folded ?? 0;
  });
}

/** The background worker's fold (lib/background.ts): every `intervalMs`, and at once again while a pass filled its batch. */
export function inboundCountFolding(intervalMs = 60_000): WorkerDefinition {
  return {
    name: "support inbound counts",
    pollMs: intervalMs,
    pass: async () => {
      const folded = await foldInboundCounts();
      if (folded !== null && folded > 0) log.debug({ folded }, "support inbound counts folded");
      return folded === FOLD_BATCH ? MORE : IDLE;
    },
  };
}
