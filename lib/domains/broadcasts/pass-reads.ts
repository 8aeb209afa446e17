// The reads of a dispatch pass (dispatcher.ts) on plain pg, not the ORM: the broadcasts under
// way and a batch's sender, read for every batch, where Prisma's per-statement CPU was more than
// the statement's own (lib/db/pool.ts hotRows, docs/benchmarks.md "Broadcasts"). The rows come
// back as Prisma's would: timestamp(3) columns as UTC dates, json parsed, enums as text.
import { hotRows } from "@/lib/db";
import type { Broadcast, Sender } from "@/lib/generated/prisma/client";

/** The SENDING broadcasts (of these customers, or all), the one longest untouched first, 20 at most. */
export function sendingBroadcasts(customerIds: readonly string[] | null): Promise<Broadcast[]> {
  return hotRows<Broadcast>({
    text: `SELECT * FROM "Broadcast" WHERE status = 'SENDING' AND ($1::text[] IS NULL OR "customerId" = ANY($1::text[]))
            ORDER BY "updatedAt" LIMIT 20`,
    values: [customerIds],
  });
}

/** A broadcast's sender, or null when it is gone. */
export async function senderById(id: string): Promise<Sender | null> {
  const [sender] = await hotRows<Sender>({ text: `SELECT * FROM "Sender" WHERE id = $1`, values: [id] });
  return sender ?? null;
}
