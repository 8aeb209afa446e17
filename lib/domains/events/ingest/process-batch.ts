// Processes stored provider callbacks: claims unprocessed rows (FOR UPDATE SKIP LOCKED,
// so several processors share the work), applies them, and marks them processed, all in
// one transaction: a crash before commit leaves them unprocessed for the next run.

import { log } from "@/lib/core/log";
import { db, type Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { patternBotsActive, predecideChatbotReplies } from "@/lib/domains/chatbots/runner";
import { cleanCallbackBody } from "@/lib/domains/provider/callbacks/clean";
import { type ParsedChange, parseProviderBody } from "@/lib/domains/provider/callbacks/schemas";
import type { EventSender } from "../emit";
import { deliveriesQueued } from "../signal";
import { botItemsOf, type InboundItem, ingestInbound } from "./inbound";
import { ingestStatuses, type StatusItem } from "./statuses";
import { ingestTemplates, type TemplateItem } from "./templates";

export const MAX_ATTEMPTS = 5;
type Claimed = { id: string; body: string };
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
    const rows = await tx.sender.findMany({
      where: { phoneNumberId: { in: [...numberIds] } },
      select: { id: true, customerId: true, phoneNumber: true, phoneNumberId: true },
    });
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
      `SELECT id, body FROM (SELECT id, body FROM "ProviderCallback" WHERE "processedAt" IS NULL ${id ? "AND id = $2" : ""}
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
        for (const update of c.value.statuses ?? []) statuses.push({ sender, update });
        for (const message of c.value.messages ?? []) inbound.push({ sender, message, contacts: c.value.contacts });
      } else if (c.kind === "template") {
        const item = { wabaId: c.entryId, field: c.field, value: c.value, raw: c.raw };
        templates.push(item);
        templateOwner.set(item, p.id);
      }
    }
  }
  let events = await ingestStatuses(tx, statuses);
  events += await ingestInbound(tx, inbound);
  const t = await ingestTemplates(tx, templates);
  events += t.events;
  for (const item of templates) {
    if (t.unknown.includes(item.wabaId)) note(templateOwner.get(item) ?? "", `unknown business account ${item.wabaId}`);
  }
  return { events, notes };
}

async function claim(tx: Tx, limit: number, id?: string): Promise<Claimed[]> {
  return tx.$queryRawUnsafe<Claimed[]>(
    `SELECT id, body FROM "ProviderCallback"
     WHERE "processedAt" IS NULL ${id ? `AND id = $2` : ""}
     ORDER BY "receivedAt" LIMIT $1 FOR UPDATE SKIP LOCKED`,
    ...(id ? [limit, id] : [limit]),
  );
}

async function markProcessed(tx: Tx, callbacks: Claimed[], notes: Map<string, string[]>) {
  const ids = callbacks.map((c) => c.id);
  const errors = ids.map((id) => notes.get(id)?.join("; ").slice(0, 1000) ?? null);
  await tx.$executeRawUnsafe(
    `UPDATE "ProviderCallback" AS c SET "processedAt" = ${NOW_UTC}, attempts = c.attempts + 1, error = s.error
     FROM unnest($1::text[], $2::text[]) AS s(id, error) WHERE c.id = s.id`,
    ids,
    errors,
  );
}

export async function runOne(limit: number, id?: string): Promise<{ callbacks: Claimed[]; events: number }> {
  await predecide(limit, id);
  return db.$transaction(
    async (tx) => {
      const callbacks = await claim(tx, limit, id);
      if (callbacks.length === 0) return { callbacks, events: 0 };
      const { events, notes } = await applyCallbacks(tx, callbacks);
      await markProcessed(tx, callbacks, notes);
      return { callbacks, events };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
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
    where: { processedAt: null },
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
