// Emitting an event: one WebhookEvent (idempotent through dedupeKey, so a replayed
// callback emits nothing new) plus one PENDING WebhookDelivery per ACTIVE destination of
// the sender subscribed to the event key, in the caller's transaction.
import { db, hotRows, type Tx } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";

export type EventSender = { id: string; customerId: string; phoneNumber: string; phoneNumberId: string | null };

export type EventInput = {
  sender: EventSender;
  type: string;
  /** Makes emission idempotent; null for an event that is new each time (a test event). */
  dedupeKey: string | null;
  data: Record<string, unknown>;
  createdAt?: Date;
  /** Delivers to this destination of the sender only, whatever it subscribes to (test events). */
  destinationId?: string;
};

/** The body every destination receives (Standard Webhooks payload). */
export type EventPayload = {
  id: string;
  type: string;
  createdAt: string;
  senderId: string;
  phoneNumberId: string | null;
  data: Record<string, unknown>;
};

export function buildPayload(id: string, input: EventInput): EventPayload {
  return {
    id,
    type: input.type,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
    senderId: input.sender.phoneNumber,
    phoneNumberId: input.sender.phoneNumberId,
    data: input.data,
  };
}

/** Inserts the events that are new (by dedupeKey) and their deliveries; returns how many were new. */
export async function emitEvents(tx: Tx, inputs: EventInput[]): Promise<number> {
  return (await insertEvents(tx, inputs, false)).events;
}

export type EmittedEvent = { eventId: string; deliveryIds: string[] };

/** Emits one event, through the same statement as emitEvents; null when its dedupeKey was seen. */
export async function emitEvent(tx: Tx, input: EventInput): Promise<EmittedEvent | null> {
  const { events, ids, deliveries } = await insertEvents(tx, [input], true);
  const eventId = ids[0];
  if (events === 0 || eventId === undefined) return null;
  return { eventId, deliveryIds: deliveries ?? [] };
}

async function insertEvents(tx: Tx, inputs: EventInput[], withDeliveries: boolean) {
  const ids: string[] = [];
  if (inputs.length === 0) return { events: 0, ids, deliveries: null };
  const customers: string[] = [];
  const senders: string[] = [];
  const types: string[] = [];
  const keys: (string | null)[] = [];
  const payloads: string[] = [];
  const destinations: (string | null)[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (input.dedupeKey !== null) {
      if (seen.has(input.dedupeKey)) continue;
      seen.add(input.dedupeKey);
    }
    const id = newId("evt_");
    ids.push(id);
    customers.push(input.sender.customerId);
    senders.push(input.sender.id);
    types.push(input.type);
    keys.push(input.dedupeKey);
    payloads.push(JSON.stringify(buildPayload(id, input)));
    destinations.push(input.destinationId ?? null);
  }
  // One statement for the whole batch (the ingest's hot path): the join back to the input
  // (for a named destination) and the delivery ids only when a caller needs them.
  const text = `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS t(id, "customerId", "senderId", type, "dedupeKey", payload, "destinationId")
     ), ev AS (
       INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
       SELECT id, "customerId", "senderId", type, "dedupeKey", payload::jsonb, ${NOW_UTC} FROM input
       ON CONFLICT ("dedupeKey") DO NOTHING
       RETURNING id, "senderId", type
     ), dl AS (
       INSERT INTO "WebhookDelivery" (id, "eventId", "destinationId", status, attempts, "nextAttemptAt", "createdAt", "updatedAt")
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.id, d.id, 'PENDING', 0, ${NOW_UTC}, ${NOW_UTC}, ${NOW_UTC}
       ${
         destinations.some((d) => d !== null)
           ? `FROM ev JOIN input i ON i.id = ev.id JOIN "WebhookDestination" d
                ON d."senderId" = ev."senderId" AND d.status = 'ACTIVE'
               AND (CASE WHEN i."destinationId" IS NULL THEN ev.type = ANY(d.events) ELSE d.id = i."destinationId" END)`
           : `FROM ev JOIN "WebhookDestination" d
                ON d."senderId" = ev."senderId" AND d.status = 'ACTIVE' AND ev.type = ANY(d.events)`
       }
       RETURNING id
     )
     SELECT (SELECT count(*) FROM ev)::int AS events,
            (SELECT count(${notifyExpression("deliveries")}) FROM (SELECT 1 FROM dl LIMIT 1) AS one) AS notified,
            ${withDeliveries ? `(SELECT array_agg(id) FROM dl)` : `NULL::text[]`} AS deliveries`;
  const values = [ids, customers, senders, types, keys, payloads, destinations];
  type Row = { events: number; deliveries: string[] | null };
  // Outside a transaction (every send's message.status.accepted, a new conversation) the
  // statement goes straight to the pg pool: Prisma's per-statement CPU is most of it (see hotRows).
  const rows = tx === db ? await hotRows<Row>({ text, values }) : await tx.$queryRawUnsafe<Row[]>(text, ...values);
  return { events: rows[0]?.events ?? 0, ids, deliveries: rows[0]?.deliveries ?? null };
}
