// The bare baseline's sending (bench/broadcast-bare.ts), written from scratch in plain SQL on
// pg: no function of the product. What a competent engineer would write for "send a template
// to N recipients at the provider's rate, written before the call, completed after,
// crash-safe", on the product's tables (the inbox, billing and the broadcast's page read them):
//   start: one statement makes the broadcast and its recipients (INSERT ... SELECT from the
//     books, one per number, blacklisted and nameless contacts skipped);
//   per batch, before the calls: ONE statement claims up to a quarter second's queued
//     recipients (FOR UPDATE SKIP LOCKED, a lease, the pair rate, the blacklist), takes as many
//     send slots from the sender's pacer row (a GCRA: slot = max(tat, now) + k x 1/throughput;
//     several workers share it), marks them sending and writes their messages, conversations
//     and thread entries (multi-row INSERTs), and returns the provider payloads;
//   the calls: each at its slot, concurrently, and never more than the throughput in the
//     last 1,000 ms of this process's own calls;
//   per batch, after the calls: ONE statement writes every message's outcome, every
//     recipient's (refused ones back to queued), events only where a destination subscribes,
//     and one live notice;
//   crash-safe: a worker that dies between the two leaves its recipients sending with a lease;
//     the sweep marks them interrupted and their messages unknown (never resent).
// Two batch loops run at once, so one's statements overlap the other's calls.
import type pg from "pg";
import type { ProviderClient, ProviderMessagePayload, ProviderSender } from "@/lib/domains/provider/types";

const LEASE_MS = 70_000;
/**
 * BENCH_BARE_EVENTS=all: an event for every status and new conversation, as the product writes
 * them, whether or not a destination subscribes (the same outbox rows; without it, only where one does).
 */
export const EVERY_EVENT = process.env.BENCH_BARE_EVENTS === "all";
const LOOPS = 2;
const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;

export type BareSender = ProviderSender & { id: string; customerId: string };
export type BareTemplate = { name: string; language: string; providerTemplateId: string; category: string };

/** The pacer's table, in the bare side's own database: one row per sender, its theoretical arrival time. */
export async function createPacer(pool: pg.Pool): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_bare_pacer (sender_id text PRIMARY KEY, tat double precision NOT NULL)`,
  );
}

/** Makes the broadcast and its recipients in one statement; the broadcast's id. */
export async function startBare(
  pool: pg.Pool,
  r: { customerId: string; senderId: string; bookIds: string[]; filters?: { field: string; value: string }[] },
): Promise<string> {
  const id = `bcbare_${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`;
  const filter = r.filters?.[0];
  await pool.query(
    `WITH b AS (
       INSERT INTO "Broadcast" (id, "customerId", "senderId", name, status, "templateName", "templateLanguage",
         audience, variables, "startedAt", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, 'Bench bare', 'SENDING', 'order_update', 'en', $4::jsonb,
         '{"body":[{"source":"name"}],"header":[]}'::jsonb, ${UTC_NOW}, ${UTC_NOW}, ${UTC_NOW})
       RETURNING id)
     INSERT INTO "BroadcastRecipient" ("broadcastId", "customerId", "senderId", "phoneNumber", "contactId",
       parameters, status, "skipReason", "createdAt", "updatedAt")
     SELECT DISTINCT ON (c."phoneNumber") (SELECT id FROM b), $2, $3, c."phoneNumber", c.id,
       jsonb_build_object('body', jsonb_build_array(c.name), 'header', '[]'::jsonb),
       (CASE WHEN bl.id IS NOT NULL OR c.name IS NULL THEN 'skipped' ELSE 'queued' END)::"BroadcastRecipientStatus",
       CASE WHEN bl.id IS NOT NULL THEN 'blacklisted' WHEN c.name IS NULL THEN 'missing_variable' END,
       ${UTC_NOW}, ${UTC_NOW}
     FROM "Contact" c
     LEFT JOIN "BlacklistEntry" bl ON bl."senderId" = $3 AND bl."phoneNumber" = c."phoneNumber"
     WHERE c."customerId" = $2 AND c."contactBookId" = ANY($5::text[])
       AND ($6::text IS NULL OR c."customFields" ->> $6 = $7)
     ORDER BY c."phoneNumber", c."createdAt"`,
    [
      id,
      r.customerId,
      r.senderId,
      JSON.stringify({ contactBookUids: r.bookIds, filters: r.filters ?? [] }),
      r.bookIds,
      filter?.field ?? null,
      filter?.value ?? null,
    ],
  );
  return id;
}

type Claimed = { id: string; messageId: string; phoneNumber: string; payload: ProviderMessagePayload; slot: number };

/** The batch's slots, claim, "sending" mark and message rows: one statement. */
function claimSql(): string {
  return `WITH c AS (
      SELECT q.id FROM "BroadcastRecipient" q
       WHERE q."broadcastId" = $1 AND q.status = 'queued' AND q."notBefore" <= ${UTC_NOW}
         AND (q."lockedUntil" IS NULL OR q."lockedUntil" < ${UTC_NOW})
         AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" x WHERE x."senderId" = q."senderId"
               AND x."phoneNumber" = q."phoneNumber" AND x."sendingAt" > ${UTC_NOW} - interval '6 seconds')
         AND NOT EXISTS (SELECT 1 FROM "BlacklistEntry" bl WHERE bl."senderId" = q."senderId" AND bl."phoneNumber" = q."phoneNumber")
       ORDER BY q.id LIMIT $5 FOR UPDATE SKIP LOCKED
    ), slot AS (
      UPDATE bench_bare_pacer SET tat = GREATEST(tat, $4::float8) + (SELECT count(*) FROM c) * $6::float8
       WHERE sender_id = $2 RETURNING tat - (SELECT count(*) FROM c) * $6::float8 AS first
    ), mark AS (
      UPDATE "BroadcastRecipient" r SET status = 'sending', attempts = r.attempts + 1,
             "messageId" = 'msg_' || substr(md5(r."broadcastId" || ':' || r.id || ':' || (r.attempts + 1)), 1, 24),
             "sendingAt" = ${UTC_NOW}, "lockedUntil" = ${UTC_NOW} + $7::int * interval '1 millisecond', "updatedAt" = ${UTC_NOW}
        FROM c WHERE r.id = c.id
      RETURNING r.id, r."messageId", r."phoneNumber",
        jsonb_build_object('messaging_product', 'whatsapp', 'recipient_type', 'individual', 'to', r."phoneNumber",
          'type', 'template', 'template', jsonb_build_object('name', $8::text, 'language', jsonb_build_object('code', $9::text),
            'components', jsonb_build_array(jsonb_build_object('type', 'body', 'parameters',
              (SELECT coalesce(jsonb_agg(jsonb_build_object('type', 'text', 'text', p)), '[]'::jsonb)
                 FROM jsonb_array_elements_text(r.parameters -> 'body') AS p))))) AS payload
    ), msg AS (
      INSERT INTO "Message" (id, "customerId", "senderId", recipient, type, "templateName", "templateLanguage",
        "pricingCategory", "sendRoute", "metaTemplateId", "broadcastId", status, queued, attempts, payload, "createdAt", "updatedAt")
      SELECT mark."messageId", $3, $2, mark."phoneNumber", 'template', $8, $9, $10, 'send', $11, $1, 'sending', false, 0,
             mark.payload, ${UTC_NOW}, ${UTC_NOW} FROM mark
    ), conv AS (
      INSERT INTO "Conversation" (id, "customerId", "senderId", "contactPhoneNumber", "lastMessageAt", "lastMessagePreview",
        "createdAt", "updatedAt")
      SELECT 'conv_' || substr(md5(random()::text || mark."phoneNumber"), 1, 24), $3, $2, mark."phoneNumber", ${UTC_NOW},
             'Template: ' || $8, ${UTC_NOW}, ${UTC_NOW} FROM mark
      ON CONFLICT ("senderId", "contactPhoneNumber") DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt",
        "lastMessagePreview" = EXCLUDED."lastMessagePreview", "updatedAt" = EXCLUDED."updatedAt", status = 'OPEN', "closedAt" = NULL
      RETURNING id, "contactPhoneNumber", (xmax = 0) AS created
    ), created AS (
      INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
      SELECT 'evt_' || substr(md5(conv.id || ':created'), 1, 24), $3, $2, 'conversation.created', 'conversation.created:' || conv.id,
             jsonb_build_object('type', 'conversation.created', 'data', jsonb_build_object('conversationUid', conv.id,
               'contactPhoneNumber', conv."contactPhoneNumber", 'direction', 'outbound')), ${UTC_NOW}
        FROM conv WHERE conv.created AND ($12::bool OR EXISTS (SELECT 1 FROM "WebhookDestination" d WHERE d."senderId" = $2
          AND d.status = 'ACTIVE' AND 'conversation.created' = ANY(d.events)))
      ON CONFLICT ("dedupeKey") DO NOTHING RETURNING id
    ), createdDelivery AS (
      INSERT INTO "WebhookDelivery" (id, "eventId", "destinationId", "updatedAt")
      SELECT 'dlv_' || substr(md5(created.id || d.id), 1, 24), created.id, d.id, ${UTC_NOW}
        FROM created JOIN "WebhookDestination" d ON d."senderId" = $2 AND d.status = 'ACTIVE' AND 'conversation.created' = ANY(d.events)
    ), entry AS (
      INSERT INTO "ConversationMessage" (id, "customerId", "conversationId", direction, type, "messageId", "sentBy", "createdAt")
      SELECT mark."messageId", $3, conv.id, 'outbound', 'template', mark."messageId", 'api', ${UTC_NOW}
        FROM mark JOIN conv ON conv."contactPhoneNumber" = mark."phoneNumber"
    )
    SELECT mark.id::text, mark."messageId", mark."phoneNumber", mark.payload, (SELECT first FROM slot) AS first FROM mark`;
}

/** Every outcome of a batch: messages, recipients, subscribed events and one live notice, one statement. */
const completeSql = `WITH u AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[]) AS u(id, status, pid, code, message)
  ), m AS (
    UPDATE "Message" m SET status = u.status, "providerMessageId" = u.pid, "errorCode" = u.code, "errorMessage" = u.message,
           attempts = 1, "updatedAt" = ${UTC_NOW}
      FROM u WHERE m.id = u.id AND m.status = 'sending' RETURNING m.id
  ), r AS (
    UPDATE "BroadcastRecipient" r SET
           status = (CASE WHEN u.code IN (130429, 131056) THEN 'queued' ELSE u.status END)::"BroadcastRecipientStatus",
           "providerMessageId" = u.pid, "errorCode" = u.code, "errorMessage" = u.message, "lockedUntil" = NULL,
           "messageId" = CASE WHEN u.code IN (130429, 131056) THEN NULL ELSE r."messageId" END,
           "notBefore" = CASE WHEN u.code IN (130429, 131056) THEN ${UTC_NOW} + interval '1 second' ELSE r."notBefore" END,
           "failedAt" = CASE WHEN u.status = 'failed' AND u.code NOT IN (130429, 131056) THEN ${UTC_NOW} ELSE r."failedAt" END,
           "updatedAt" = ${UTC_NOW}
      FROM u WHERE r."messageId" = u.id AND r.status = 'sending' RETURNING r.id
  ), ev AS (
    INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
    SELECT 'evt_' || substr(md5(u.id || ':accepted'), 1, 24), $6, $7, 'message.status.accepted', 'status:' || u.pid || ':accepted',
           jsonb_build_object('type', 'message.status.accepted', 'data', jsonb_build_object('messageId', u.pid, 'messageUid', u.id,
             'status', 'accepted', 'broadcastUid', $8::text)), ${UTC_NOW}
      FROM u WHERE u.status = 'accepted' AND ($9::bool OR EXISTS (SELECT 1 FROM "WebhookDestination" d WHERE d."senderId" = $7
        AND d.status = 'ACTIVE' AND 'message.status.accepted' = ANY(d.events)))
    ON CONFLICT ("dedupeKey") DO NOTHING RETURNING id
  ), dl AS (
    INSERT INTO "WebhookDelivery" (id, "eventId", "destinationId", "updatedAt")
    SELECT 'dlv_' || substr(md5(ev.id || d.id), 1, 24), ev.id, d.id, ${UTC_NOW}
      FROM ev JOIN "WebhookDestination" d ON d."senderId" = $7 AND d.status = 'ACTIVE' AND 'message.status.accepted' = ANY(d.events)
  )
  SELECT (SELECT count(*) FROM m)::int AS messages, (SELECT count(*) FROM r)::int AS recipients,
         pg_notify('switchboard_live', json_build_object('c', $6::text, 'e', json_build_array(
           json_build_object('kind', 'conversations.changed', 'senderId', $7::text)))::text) AS live`;

/** This process's calls of the last 1,000 ms: a call waits while the throughput is reached. */
class RecentCalls {
  private times: number[] = [];
  constructor(private readonly perSecond: number) {}
  async room(): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.times.length > 0 && (this.times[0] ?? now) <= now - 1_000) this.times.shift();
      if (this.times.length < this.perSecond) {
        this.times.push(now);
        return;
      }
      await new Promise((r) => setTimeout(r, (this.times[0] ?? now) + 1_000 - now + 1));
    }
  }
}

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

/** Sends the broadcast to the end with LOOPS batch loops; marks it COMPLETED. */
export async function sendBare(
  pool: pg.Pool,
  provider: ProviderClient,
  uid: string,
  sender: BareSender,
  template: BareTemplate,
): Promise<void> {
  const throughput = sender.throughputPerSecond ?? 80;
  // A quarter of a second's sends per batch (at least 1, at most 250): the statements are per batch.
  const batch = Math.max(1, Math.min(250, Math.floor(throughput / 4)));
  const interval = 1000 / throughput;
  const recent = new RecentCalls(throughput);
  await pool.query(`INSERT INTO bench_bare_pacer VALUES ($1, 0) ON CONFLICT DO NOTHING`, [sender.id]);
  const claim = claimSql();
  const loop = async () => {
    for (;;) {
      const rows = (
        await pool.query<Claimed & { first: number }>(claim, [
          uid,
          sender.id,
          sender.customerId,
          Date.now(),
          batch,
          interval,
          LEASE_MS,
          template.name,
          template.language,
          template.category,
          template.providerTemplateId,
          EVERY_EVENT,
        ])
      ).rows;
      if (rows.length === 0) {
        const done = await pool.query(
          `UPDATE "Broadcast" SET status = 'COMPLETED', "completedAt" = ${UTC_NOW}, "updatedAt" = ${UTC_NOW}
            WHERE id = $1 AND status = 'SENDING' AND NOT EXISTS (SELECT 1 FROM "BroadcastRecipient" r
              WHERE r."broadcastId" = $1 AND r.status IN ('queued', 'sending')) RETURNING id`,
          [uid],
        );
        const left = await pool.query(`SELECT status FROM "Broadcast" WHERE id = $1`, [uid]);
        if (done.rowCount || left.rows[0]?.status !== "SENDING") return;
        await new Promise((r) => setTimeout(r, 100)); // the other loop's batch, or a refusal's retry time
        continue;
      }
      const first = Number(rows[0]?.first ?? Date.now());
      const outcomes = await Promise.all(
        rows.map(async (row, i) => {
          await sleepUntil(first + i * interval);
          await recent.room();
          const o = await provider.sendMessage(sender, row.payload, { pricingCategory: template.category });
          return o.ok
            ? { id: row.messageId, status: "accepted", pid: o.messageId, code: null, message: null }
            : { id: row.messageId, status: "failed", pid: null, code: o.code, message: o.message };
        }),
      );
      await pool.query(completeSql, [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.pid),
        outcomes.map((o) => o.code),
        outcomes.map((o) => o.message),
        sender.customerId,
        sender.id,
        uid,
        EVERY_EVENT,
      ]);
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
}

/** The sweep: recipients left sending past their lease are interrupted, their messages unknown (never resent). */
export async function sweepBare(pool: pg.Pool): Promise<void> {
  await pool.query(
    `WITH r AS (
       UPDATE "BroadcastRecipient" SET status = 'interrupted', "lockedUntil" = NULL, "updatedAt" = ${UTC_NOW}
        WHERE status = 'sending' AND "lockedUntil" < ${UTC_NOW} RETURNING "messageId")
     UPDATE "Message" m SET status = 'unknown', "updatedAt" = ${UTC_NOW} FROM r WHERE m.id = r."messageId" AND m.status = 'sending'`,
  );
}
