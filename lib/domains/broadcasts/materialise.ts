// A start makes its recipients in bounded chunks, outside any long transaction
// (docs/broadcasts.md "States"): the broadcast is STARTING (visible, cancellable), and each
// chunk is one short transaction that inserts the recipients of one range of phone numbers
// (INSERT ... SELECT over the audience query, lib/domains/broadcasts/audience.ts) and moves
// the broadcast's cursor (startCursor) past it, only while the broadcast is still STARTING and
// the cursor is where the chunk began. The last chunk turns it SENDING and emits
// broadcast.started. Whoever holds the start's lease (lockedUntil) makes the chunks: the start
// request for a moment, then the dispatcher's housekeeping, which takes over a lease a crash
// left, from the cursor. A cancel meanwhile wins: the next chunk finds it CANCELLED and stops.
import { db, type Tx } from "@/lib/db";
import type { Broadcast } from "@/lib/generated/prisma/client";
import { type AudienceInput, audienceQuery, type PhoneRange } from "./audience";
import { broadcastEvent } from "./events";
import type { Variables } from "./schemas";
import { audienceRulesOf, type StoredAudience } from "./segments";

/** Recipients per chunk, the start request's time budget and the lease (tests make them small). */
export const startChunks = { chunk: 5_000, requestBudgetMs: 1_000, leaseMs: 30_000 };

/** A chunk that found the broadcast changed under it (cancelled, or another holder moved on): rolled back. */
class Superseded extends Error {}

const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;

/** The broadcast's audience; a segment's as its start took it, lastInboundWithin counted from the start. */
const inputOf = async (b: Broadcast): Promise<AudienceInput> => ({
  customerId: b.customerId,
  senderId: b.senderId,
  audience: await audienceRulesOf(db, b.customerId, b.audience as unknown as StoredAudience),
  variables: b.variables as unknown as Variables,
  now: b.startedAt ?? new Date(),
});

/**
 * The upper end of the next range: in each contact book, the chunk-th number after the cursor
 * (an index range scan on (contactBookId, phoneNumber)), the lowest of them; null: the rest
 * (no book has that many left; the listed numbers go with the last range).
 */
async function nextBound(input: AudienceInput, after: string | null, chunk: number): Promise<string | null> {
  const books = input.audience.contactBookUids;
  // A segment without books: the chunk-th of every number the account knows after the cursor,
  // its contacts' and its conversations' (an account may know most numbers only from
  // conversations). The chunk-th of the union is among the first `chunk` of each side, both read
  // by index range scans ((customerId, phoneNumber) and (customerId, contactPhoneNumber)).
  if (books.length === 0 && input.audience.segment) {
    const later = (column: string) => (after === null ? "" : `AND ${column} > $3::text`);
    const rows = await db.$queryRawUnsafe<{ bound: string | null }[]>(
      `SELECT phone AS bound FROM (
         (SELECT c."phoneNumber" AS phone FROM "Contact" c
           WHERE c."customerId" = $1 ${later('c."phoneNumber"')} ORDER BY c."phoneNumber" LIMIT $2)
         UNION
         (SELECT v."contactPhoneNumber" FROM "Conversation" v
           WHERE v."customerId" = $1 ${later('v."contactPhoneNumber"')} ORDER BY v."contactPhoneNumber" LIMIT $2)
       ) known ORDER BY phone OFFSET $2 - 1 LIMIT 1`,
      input.customerId,
      chunk,
      ...(after === null ? [] : [after]),
    );
    return rows[0]?.bound ?? null;
  }
  if (books.length === 0) return null;
  const rows = await db.$queryRawUnsafe<{ bound: string | null }[]>(
    `SELECT min(x.phone) AS bound FROM unnest($2::text[]) AS bk(id) CROSS JOIN LATERAL (
       SELECT c."phoneNumber" AS phone FROM "Contact" c
        WHERE c."contactBookId" = bk.id AND c."customerId" = $1 ${after === null ? "" : `AND c."phoneNumber" > $4::text`}
        ORDER BY c."phoneNumber" OFFSET $3 LIMIT 1) x`,
    input.customerId,
    books,
    chunk - 1,
    ...(after === null ? [] : [after]),
  );
  return rows[0]?.bound ?? null;
}

/** The recipients of one range, in the chunk's transaction; a number already made is left as it is. */
async function insertRange(tx: Tx, b: Broadcast, input: AudienceInput, range: PhoneRange, now: Date): Promise<void> {
  const q = audienceQuery(input, range);
  const n = q.values.length;
  await tx.$executeRawUnsafe(
    `INSERT INTO "BroadcastRecipient" ("broadcastId", "customerId", "senderId", "phoneNumber", "contactId", parameters, status, "skipReason", "createdAt", "updatedAt")
     SELECT $${n + 1}, $${n + 2}, $${n + 3}, a.phone, a."contactId", a.parameters, a.status::"BroadcastRecipientStatus", a."skipReason",
            ${UTC(n + 4)}, ${UTC(n + 4)}
       FROM (${q.text}) a
     ON CONFLICT ("broadcastId", "phoneNumber") DO NOTHING`,
    ...q.values,
    b.id,
    b.customerId,
    b.senderId,
    now.toISOString(),
  );
}

/** One chunk: its range's recipients and the cursor moved (or SENDING, for the last); false once it is not STARTING. */
async function step(id: string, now: () => Date): Promise<"more" | "done" | "stopped"> {
  const b = await db.broadcast.findUnique({ where: { id } });
  if (b?.status !== "STARTING") return "stopped";
  const after = b.startCursor;
  const input = await inputOf(b);
  const upTo = await nextBound(input, after, startChunks.chunk);
  try {
    return await db.$transaction(
      async (tx) => {
        const at = now();
        await insertRange(tx, b, input, { after, upTo }, at);
        const moved = await tx.$executeRawUnsafe(
          `UPDATE "Broadcast"
              SET "startCursor" = $2, "lockedUntil" = ${UTC(3)}, "updatedAt" = ${UTC(4)},
                  status = (CASE WHEN $2::text IS NULL THEN 'SENDING' ELSE 'STARTING' END)::"BroadcastStatus"
            WHERE id = $1 AND status = 'STARTING' AND "startCursor" IS NOT DISTINCT FROM $5::text`,
          b.id,
          upTo,
          upTo === null ? null : new Date(at.getTime() + startChunks.leaseMs).toISOString(),
          at.toISOString(),
          after,
        );
        if (moved === 0) throw new Superseded();
        if (upTo !== null) return "more" as const;
        const sender = await tx.sender.findUniqueOrThrow({ where: { id: b.senderId } });
        await broadcastEvent(tx, sender, "broadcast.started", b.id, { status: "SENDING", estimate: b.estimate });
        return "done" as const;
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    if (error instanceof Superseded) return "stopped";
    throw error;
  }
}

/**
 * Makes chunks of a STARTING broadcast's recipients until it is SENDING (true), it stops being
 * STARTING (true: nothing left to do here), or budgetMs is spent (false: the lease is given
 * up and the housekeeping goes on from the cursor). At least one chunk.
 */
export async function materialise(id: string, budgetMs: number, now: () => Date = () => new Date()): Promise<boolean> {
  const until = Date.now() + budgetMs;
  for (;;) {
    const r = await step(id, now);
    if (r !== "more") return true;
    if (Date.now() >= until) {
      await db.$executeRawUnsafe(
        `UPDATE "Broadcast" SET "lockedUntil" = NULL WHERE id = $1 AND status = 'STARTING'`,
        id,
      );
      return false;
    }
  }
}

/**
 * The housekeeping part: STARTING broadcasts nobody holds (a budget ran out, or the holder
 * crashed and its lease passed), each taken under a lease (FOR UPDATE SKIP LOCKED: one worker
 * each) and continued from its cursor for up to budgetMs.
 */
export async function continueStarting(
  customerIds: string[] | null,
  now: () => Date,
  budgetMs = 1_000,
): Promise<number> {
  const at = now();
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE "Broadcast" SET "lockedUntil" = ${UTC(1)} WHERE id IN (
       SELECT id FROM "Broadcast" WHERE status = 'STARTING' AND ("lockedUntil" IS NULL OR "lockedUntil" < ${UTC(2)})
          AND ($3::text[] IS NULL OR "customerId" = ANY($3::text[]))
        ORDER BY "startedAt" LIMIT 5 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    new Date(at.getTime() + startChunks.leaseMs).toISOString(),
    at.toISOString(),
    customerIds,
  );
  for (const { id } of rows) await materialise(id, budgetMs, now);
  return rows.length;
}
