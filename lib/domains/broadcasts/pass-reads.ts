// The reads of a dispatch pass (dispatcher.ts) on plain pg, not the ORM: the broadcasts under
// way, read for every pass (a batch's sender: lib/domains/senders/service.ts senderById), where Prisma's per-statement CPU was more than
// the statement's own (lib/db/pool.ts hotRows, docs/benchmarks.md "Broadcasts"). The rows come
// back as Prisma's would: timestamp(3) columns as UTC dates, json parsed, enums as text.
import { hotRows } from "@/lib/db";
import type { Broadcast } from "@/lib/generated/prisma/client";

/** The SENDING broadcasts (of these customers, or all), the one longest untouched first, 20 at most. */
export function sendingBroadcasts(customerIds: readonly string[] | null): Promise<Broadcast[]> {
  return hotRows<Broadcast>({
    text: `SELECT * FROM "Broadcast" WHERE status = 'SENDING' AND ($1::text[] IS NULL OR "customerId" = ANY($1::text[]))
            ORDER BY "updatedAt" LIMIT 20`,
    values: [customerIds],
  });
}
