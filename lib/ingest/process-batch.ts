// Processes stored provider callbacks: claims unprocessed rows (FOR UPDATE SKIP LOCKED,
// so several processors share the work), applies them, and marks them processed, all in
// one transaction: a crash before commit leaves them unprocessed for the next run. A batch
// of statuses runs in a plain pg transaction (lib/db/plain-tx.ts: every statement raw and
// set-based, one per table per batch, none through the ORM, whose per-statement CPU was a
// large share of a batch: docs/event-pipeline.md "Statuses -> billing records and ledger");
// a batch with inbound messages or template updates, whose code uses the ORM, runs in a
// Prisma transaction.

import { log } from "@/lib/core/log";
import { db, type Tx } from "@/lib/db";
import { plainOrPrismaTransaction, requirePrisma } from "@/lib/db/plain-tx";
import { NOW_UTC } from "@/lib/db/sql";
import { spendingCommitted } from "@/lib/domains/billing/low-balance";
import { lockBatchRecipients } from "@/lib/domains/broadcasts/recipient-statuses";
import { patternBotsActive, predecideChatbotReplies } from "@/lib/domains/chatbots/runner";
import type { EventSender } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { recordExternalMessages } from "@/lib/domains/messages/delivery";
import { cleanCallbackBody } from "@/lib/domains/provider/callbacks/clean";
import { type ParsedChange, parseProviderBody } from "@/lib/domains/provider/callbacks/schemas";
import { botItemsOf, type InboundItem, ingestInbound, repliesOf } from "./inbound";
import { ingestStatuses, type StatusItem } from "./statuses";
import { ingestTemplates, type TemplateItem } from "./templates";

export const MAX_ATTEMPTS = 5;
/**
 * A status for a message id no send of ours holds is applied at once as sent outside this service
 * (sendRoute "external": billing record, ledger, events). It may also be early (the provider
 * answered, the send has not recorded its id): its callback is looked at again every
 * RETRY_UNKNOWN_MS for UNKNOWN_GRACE_MS after it arrived (a send that recorded the id meanwhile
 * takes its record); after that the ids still unheld get a message row of their own (sendRoute
 * "external", no thread entry), which the reports read. docs/event-pipeline.md "Statuses for
 * messages we did not send".
 */
const RETRY_UNKNOWN_MS = 2_000;
const UNKNOWN_GRACE_MS = 2 * 60_000;
type Claimed = { id: string; body: string; young?: boolean };
/** Claimable: not processed, and not waiting for its retry time. */
const CLAIMABLE = `"processedAt" IS NULL AND ("retryAt" IS NULL OR "retryAt" <= ${NOW_UTC})`;
export type BatchResult = { callbacks: number; events: number; failed: number };

type Parsed = { id: string; changes: ParsedChange[] };

/** The callbacks' bodies parsed; a malformed one is noted and left out. */
function parseCallbacks(callbacks: Claimed[], note: (id: string, text: string) => void): Parsed[] {
  const parsed: Parsed[] = [];
  for (const cb of callbacks) {
    try {
      // Rows stored before the endpoint cleaned bodies may still carry NUL or lone surrogates.
      parsed.push({ id: cb.id, changes: parseProviderBody(cleanCallbackBody(cb.body)) });
    } catch {
      note(cb.id, "malformed payload");
    }
  }
  return parsed;
}

/** The senders the messages changes are addressed to, by phone number id. */
async function sendersOf(tx: Tx, parsed: Parsed[]): Promise<Map<string, EventSender>> {
  const numberIds = new Set<string>();
  for (const p of parsed)
    for (const c of p.changes) if (c.kind === "messages") numberIds.add(c.value.metadata.phone_number_id);
  const senders = new Map<string, EventSender>();
  if (numberIds.size > 0) {
    const rows = await tx.$queryRawUnsafe<EventSender[]>(
      `SELECT "id", "customerId", "phoneNumber", "phoneNumberId" FROM "Sender" WHERE "phoneNumberId" = ANY($1::text[])`,
      [...numberIds],
    );
    for (const s of rows) if (s.phoneNumberId) senders.set(s.phoneNumberId, s);
  }
  return senders;
}

/**
 * Chatbot patterns run before the transaction (lib/domains/chatbots/runner.ts
 * predecideChatbotReplies): the inbound messages of the callbacks the transaction is about to
 * claim, read without a lock. Only when an ACTIVE bot has patterns; a failure here only means
 * the decisions are made inside the transaction, as for bots without patterns.
 */
async function predecide(limit: number, id?: string): Promise<void> {
  try {
    if (!(await patternBotsActive())) return;
    const rows = await db.$queryRawUnsafe<Claimed[]>(
      `SELECT id, body FROM (SELECT id, body FROM "ProviderCallback" WHERE ${CLAIMABLE} ${id ? "AND id = $2" : ""}
         ORDER BY "receivedAt" LIMIT $1) AS next WHERE strpos(body, '"messages"') > 0`,
      ...(id ? [limit, id] : [limit]),
    );
    if (rows.length === 0) return;
    const parsed = parseCallbacks(rows, () => {});
    const senders = await sendersOf(db, parsed);
    const inbound: InboundItem[] = [];
    for (const p of parsed) {
      for (const c of p.changes) {
        const sender = c.kind === "messages" ? senders.get(c.value.metadata.phone_number_id) : undefined;
        if (c.kind !== "messages" || !sender) continue;
        for (const message of c.value.messages ?? []) inbound.push({ sender, message, contacts: c.value.contacts });
      }
    }
    await predecideChatbotReplies(botItemsOf(inbound));
  } catch (error) {
    log.warn({ err: error }, "chatbot decisions before the ingest failed; they are made inside it");
  }
}

/** Applies the given callbacks; returns the events emitted and a note per callback with problems. */
async function applyCallbacks(tx: Tx, callbacks: Claimed[]) {
  const notes = new Map<string, string[]>();
  const note = (id: string, text: string) => notes.set(id, [...(notes.get(id) ?? []), text]);
  const parsed = parseCallbacks(callbacks, note);
  const senders = await sendersOf(tx, parsed);
  const statuses: StatusItem[] = [];
  const statusOwner = new Map<StatusItem, string>();
  const inbound: InboundItem[] = [];
  const templates: TemplateItem[] = [];
  const templateOwner = new Map<TemplateItem, string>();
  for (const p of parsed) {
    for (const c of p.changes) {
      if (c.kind === "messages") {
        const sender = senders.get(c.value.metadata.phone_number_id);
        if (!sender) {
          note(p.id, `unknown phone_number_id ${c.value.metadata.phone_number_id}`);
          continue;
        }
        for (const update of c.value.statuses ?? []) {
          const item = { sender, update };
          statuses.push(item);
          statusOwner.set(item, p.id);
        }
        for (const message of c.value.messages ?? []) inbound.push({ sender, message, contacts: c.value.contacts });
      } else if (c.kind === "template") {
        const item = { wabaId: c.entryId, field: c.field, value: c.value, raw: c.raw };
        templates.push(item);
        templateOwner.set(item, p.id);
      }
    }
  }
  // Inbound messages and template updates are written through the ORM: given up here, before
  // anything is written, the plain transaction rolls back and the batch runs in a Prisma one.
  if (inbound.length > 0 || templates.length > 0) requirePrisma(tx, "inbound messages or template updates");
  // Every broadcast recipient the batch may write, locked first in id order (no 40P01 with another batch).
  await lockBatchRecipients(
    tx,
    statuses.map((s) => s.update.id),
    repliesOf(inbound),
  );
  const applied = await ingestStatuses(tx, statuses);
  let events = applied.events;
  // Per callback: the ids sent outside this service (see RETRY_UNKNOWN_MS), the statuses ignored.
  const byOwner = (items: StatusItem[]) => {
    const out = new Map<string, string[]>();
    for (const item of items) {
      const owner = statusOwner.get(item) ?? "";
      out.set(owner, [...(out.get(owner) ?? []), item.update.id]);
    }
    return out;
  };
  const external = byOwner(applied.external);
  const ignored = byOwner(applied.ignored);
  events += await ingestInbound(tx, inbound);
  const t = await ingestTemplates(tx, templates);
  events += t.events;
  for (const item of templates) {
    if (t.unknown.includes(item.wabaId)) note(templateOwner.get(item) ?? "", `unknown business account ${item.wabaId}`);
  }
  return { events, notes, external, ignored };
}

async function claim(tx: Tx, limit: number, id?: string): Promise<Claimed[]> {
  return tx.$queryRawUnsafe<Claimed[]>(
    `SELECT id, body, "receivedAt" > ${NOW_UTC} - interval '${UNKNOWN_GRACE_MS} milliseconds' AS young
     FROM "ProviderCallback"
     WHERE ${CLAIMABLE} ${id ? `AND id = $2` : ""}
     ORDER BY "receivedAt" LIMIT $1 FOR UPDATE SKIP LOCKED`,
    ...(id ? [limit, id] : [limit]),
  );
}

async function markProcessed(tx: Tx, callbacks: Claimed[], notes: Map<string, string[]>, ignored: Map<string, number>) {
  if (callbacks.length === 0) return;
  const ids = callbacks.map((c) => c.id);
  const errors = ids.map((id) => notes.get(id)?.join("; ").slice(0, 1000) ?? null);
  await tx.$executeRawUnsafe(
    `UPDATE "ProviderCallback" AS c SET "processedAt" = ${NOW_UTC}, attempts = c.attempts + 1, error = s.error,
       "retryAt" = NULL, "ignoredStatuses" = s.ignored
     FROM unnest($1::text[], $2::text[], $3::int[]) AS s(id, error, ignored) WHERE c.id = s.id`,
    ids,
    errors,
    ids.map((id) => ignored.get(id) ?? 0),
  );
}

/** Callbacks whose unknown statuses are still in their grace: looked at again after RETRY_UNKNOWN_MS. */
async function retryLater(tx: Tx, callbacks: Claimed[]) {
  if (callbacks.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE "ProviderCallback" SET "retryAt" = ${NOW_UTC} + interval '${RETRY_UNKNOWN_MS} milliseconds'
     WHERE id = ANY($1::text[])`,
    callbacks.map((c) => c.id),
  );
}

export async function runOne(limit: number, id?: string): Promise<{ callbacks: Claimed[]; events: number }> {
  await predecide(limit, id);
  const result = await plainOrPrismaTransaction(
    async (tx) => {
      const callbacks = await claim(tx, limit, id);
      if (callbacks.length === 0) return { callbacks, events: 0 };
      const { events, notes, external, ignored } = await applyCallbacks(tx, callbacks);
      // What they hold is applied either way (again on a retry: replays change nothing).
      const waiting = callbacks.filter((c) => external.has(c.id) && c.young === true);
      const done = callbacks.filter((c) => !waiting.includes(c));
      await recordExternalMessages(
        tx,
        done.flatMap((c) => external.get(c.id) ?? []),
      );
      const ignoredCounts = new Map<string, number>();
      for (const c of done) {
        const ids = ignored.get(c.id);
        if (!ids) continue;
        ignoredCounts.set(c.id, ids.length);
        const listed = `${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", ..." : ""}`;
        notes.set(c.id, [
          ...(notes.get(c.id) ?? []),
          `ignored ${ids.length} status(es) for message ids another sender sent (${listed}); not billed`,
        ]);
        log.info({ callbackId: c.id, ignored: ids.length }, "statuses for another sender's message ids ignored");
      }
      await markProcessed(tx, done, notes, ignoredCounts);
      await retryLater(tx, waiting);
      return { callbacks, events };
    },
    (work) => db.$transaction(work, { timeout: 60_000, maxWait: 30_000 }),
  );
  // Its debits are committed: the low-balance check may read them (docs/api/billing.md "Low balance").
  spendingCommitted();
  return result;
}

/**
 * Processes up to `limit` pending callbacks. If the batch fails as a whole (a deadlock with
 * another processor, a bug on one payload), each callback is retried alone; one that keeps
 * failing goes to the dead-letter list (deadAt, see dead-letters.ts) after MAX_ATTEMPTS,
 * with its error recorded.
 */
export async function processPendingCallbacks(limit = 100): Promise<BatchResult> {
  try {
    const { callbacks, events } = await runOne(limit);
    if (events > 0) deliveriesQueued();
    return { callbacks: callbacks.length, events, failed: 0 };
  } catch (error) {
    log.warn({ err: error }, "callback batch failed; retrying one by one");
  }
  const ids = await db.providerCallback.findMany({
    where: { processedAt: null, OR: [{ retryAt: null }, { retryAt: { lte: new Date() } }] },
    orderBy: { receivedAt: "asc" },
    take: limit,
    select: { id: true },
  });
  const result: BatchResult = { callbacks: 0, events: 0, failed: 0 };
  for (const { id } of ids) {
    try {
      const r = await runOne(1, id);
      result.callbacks += r.callbacks.length;
      result.events += r.events;
    } catch (error) {
      result.failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      log.error({ err: error, callbackId: id }, "provider callback failed");
      await db.$executeRawUnsafe(
        `UPDATE "ProviderCallback" SET attempts = attempts + 1, error = $2,
           "processedAt" = CASE WHEN attempts + 1 >= $3 THEN ${NOW_UTC} ELSE NULL END,
           "deadAt" = CASE WHEN attempts + 1 >= $3 THEN ${NOW_UTC} ELSE NULL END
         WHERE id = $1 AND "processedAt" IS NULL`,
        id,
        message.slice(0, 1000),
        MAX_ATTEMPTS,
      );
    }
  }
  if (result.events > 0) deliveriesQueued();
  return result;
}
