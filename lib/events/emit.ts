// Emitting an event: one WebhookEvent (idempotent through dedupeKey, so a replayed
// callback emits nothing new) plus one PENDING WebhookDelivery per ACTIVE destination of
// the sender subscribed to the event key, in the caller's transaction.
import type { Tx } from "@/lib/db";
import { NOW_UTC, newId } from "./sql";

export type EventSender = { id: string; customerId: string; phoneNumber: string; phoneNumberId: string | null };

export type EventInput = {
  sender: EventSender;
  type: string;
  dedupeKey: string;
  data: Record<string, unknown>;
  createdAt?: Date;
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
  if (inputs.length === 0) return 0;
  const ids: string[] = [];
  const customers: string[] = [];
  const senders: string[] = [];
  const types: string[] = [];
  const keys: string[] = [];
  const payloads: string[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (seen.has(input.dedupeKey)) continue;
    seen.add(input.dedupeKey);
    const id = newId("evt_");
    ids.push(id);
    customers.push(input.sender.customerId);
    senders.push(input.sender.id);
    types.push(input.type);
    keys.push(input.dedupeKey);
    payloads.push(JSON.stringify(buildPayload(id, input)));
  }
  const rows = await tx.$queryRawUnsafe<{ events: number }[]>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS t(id, "customerId", "senderId", type, "dedupeKey", payload)
     ), ev AS (
       INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
       SELECT id, "customerId", "senderId", type, "dedupeKey", payload::jsonb, ${NOW_UTC} FROM input
       ON CONFLICT ("dedupeKey") DO NOTHING
       RETURNING id, "senderId", type
     ), dl AS (
       INSERT INTO "WebhookDelivery" (id, "eventId", "destinationId", status, attempts, "nextAttemptAt", "createdAt", "updatedAt")
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.id, d.id, 'PENDING', 0, ${NOW_UTC}, ${NOW_UTC}, ${NOW_UTC}
       FROM ev JOIN "WebhookDestination" d
         ON d."senderId" = ev."senderId" AND d.status = 'ACTIVE' AND ev.type = ANY(d.events)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM ev)::int AS events`,
    ids,
    customers,
    senders,
    types,
    keys,
    payloads,
  );
  return rows[0]?.events ?? 0;
}
