// Publishing a live notice (docs/inbox.md "Live updates"): pg_notify on the live channel
// inside the writing transaction, so it is delivered when (and only if) the change commits,
// to every instance's LISTEN connection (lib/db/wakeups.ts; the embedded PGlite socket
// relays it to every connection of the one process). NOTIFY payloads must stay under
// 8000 bytes: the notices are ids and counts, packed into as few payloads as fit.
import type { Tx } from "@/lib/db";
import { CHANNELS } from "@/lib/db/wakeups";
import { Prisma } from "@/lib/generated/prisma/client";
import type { LiveEvent, LivePayload } from "./events";

/** Below PostgreSQL's 8000-byte limit on a NOTIFY payload, with room to spare. */
export const MAX_PAYLOAD_BYTES = 7_000;

/** The payloads for these notices of one customer, each under MAX_PAYLOAD_BYTES. */
export function livePayloads(customerId: string, events: LiveEvent[]): string[] {
  const out: string[] = [];
  let batch: LiveEvent[] = [];
  const text = (e: LiveEvent[]) => JSON.stringify({ c: customerId, e } satisfies LivePayload);
  for (const event of events) {
    const next = [...batch, event];
    if (batch.length > 0 && Buffer.byteLength(text(next)) > MAX_PAYLOAD_BYTES) {
      out.push(text(batch));
      batch = [event];
    } else batch = next;
  }
  if (batch.length > 0) out.push(text(batch));
  // One notice that alone is too large (never expected: ids and counts) is dropped, not sent
  // truncated: the pages' fallback polling and refetch-on-reconnect cover it.
  return out.filter((p) => Buffer.byteLength(p) <= MAX_PAYLOAD_BYTES);
}

/** Notifies these notices in the caller's transaction (or as a statement of its own on `db`). */
export async function publishLive(tx: Tx, customerId: string, events: LiveEvent[]): Promise<void> {
  const payloads = livePayloads(customerId, events);
  if (payloads.length === 0) return;
  await tx.$queryRaw`SELECT count(pg_notify(${CHANNELS.live}, p))::int AS n FROM unnest(${payloads}::text[]) AS p`;
}

/**
 * `pg_notify(...)` for a single-statement write (the send path's hot statements): a
 * message.created notice whose conversation uid is the SQL expression `conversationUid`.
 * Put it in the statement's SELECT list as `(SELECT count(<this>) FROM <cte>)`.
 */
export function messageCreatedNotify(customerId: string, senderId: string, conversationUid: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`pg_notify(${CHANNELS.live}, json_build_object('c', ${customerId}::text, 'e', json_build_array(
    json_build_object('kind', 'message.created', 'senderId', ${senderId}::text, 'conversationUid', ${conversationUid})))::text)`;
}

/** As messageCreatedNotify, for a sent message's status move (each part an SQL expression over the written row). */
export function messageStatusNotify(row: {
  customerId: Prisma.Sql;
  senderId: Prisma.Sql;
  id: Prisma.Sql;
  status: Prisma.Sql;
}): Prisma.Sql {
  return Prisma.sql`pg_notify(${CHANNELS.live}, json_build_object('c', ${row.customerId}, 'e', json_build_array(
    json_build_object('kind', 'message.status', 'senderId', ${row.senderId}, 'messageId', ${row.id},
      'status', ${row.status})))::text)`;
}
