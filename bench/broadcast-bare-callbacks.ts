// The bare baseline's provider callbacks (bench/broadcast-bare.ts), written from scratch on
// pg: no function of the product. The same design as the product's (the provider needs a
// fast, durable 200; the work is done after), the best way a competent engineer would:
//   receive: the signature checked (HMAC-SHA256 of the raw body with the app secret), the
//     envelope's shape checked, the raw body stored with one INSERT, the processor woken in
//     this process (no NOTIFY per callback);
//   process, per batch of up to 100 stored callbacks, in one transaction: one statement claims
//     them, one applies all their statuses set-based (the billing records upserted with the
//     status order and the pricing rules merged in SQL, the ledger debits, the broadcast
//     recipients, events only where a destination subscribes, one live notice), and one puts
//     back those with a message id not recorded yet (a status can come before its send's
//     outcome is written; looked at again a second later, for two minutes).
import { createHmac, timingSafeEqual } from "node:crypto";
import type pg from "pg";
import { EVERY_EVENT } from "./broadcast-bare-send";

const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;
const BATCH = 100;

/** Checks and stores one callback; the HTTP status to answer. */
export async function receiveBare(pool: pg.Pool, raw: Buffer, signature: string | null, wake: () => void) {
  const secret = process.env.PROVIDER_APP_SECRET ?? "";
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`);
  const given = Buffer.from(signature ?? "");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 401;
  const text = raw.toString("utf8");
  let body: { object?: unknown; entry?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return 400;
  }
  if (body.object !== "whatsapp_business_account" || !Array.isArray(body.entry)) return 400;
  await pool.query(`INSERT INTO "ProviderCallback" (id, body, "receivedAt") VALUES ($1, $2, ${UTC_NOW})`, [
    `cbbare_${Math.random().toString(36).slice(2, 14)}`,
    text,
  ]);
  wake();
  return 200;
}

type Status = {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  pricing?: { billable?: boolean; pricing_model?: string; category?: string; type?: string };
  conversation?: { id?: string; origin?: { type?: string } };
  errors?: { code?: number; title?: string }[];
};

const RANK: Record<string, number> = { pending: 0, accepted: 1, sent: 2, delivered: 3, read: 4 };
/** The status order of a billing record: forward only; failed only before delivery. */
const advances = (from: string | null, to: string) =>
  to === "failed"
    ? from === null || (from !== "failed" && (RANK[from] ?? 0) < 3)
    : from !== "failed" && (RANK[to] ?? -1) > (from === null ? -1 : (RANK[from] ?? 0));
/** The same rule in SQL, for the merge with the stored record. */
const advancesSql = (from: string, to: string) =>
  `(CASE WHEN ${to} = 'failed' THEN ${from} NOT IN ('failed', 'delivered', 'read')
         ELSE ${from} <> 'failed' AND (${rankSql(to)}) > (${rankSql(from)}) END)`;
const rankSql = (s: string) =>
  `CASE ${s} WHEN 'pending' THEN 0 WHEN 'accepted' THEN 1 WHEN 'sent' THEN 2 WHEN 'delivered' THEN 3 WHEN 'read' THEN 4 ELSE -1 END`;
const at = (s: Status) => new Date(Number(s.timestamp ?? 0) * 1000 || Date.now()).toISOString();

/** One row per message: its batch's statuses folded in lifecycle order (as they would apply one by one). */
function fold(statuses: Status[]) {
  const byMessage = new Map<string, Status[]>();
  for (const s of statuses) byMessage.set(s.id, [...(byMessage.get(s.id) ?? []), s]);
  const order = (s: Status) => (s.status === "failed" ? 9 : (RANK[s.status] ?? 8));
  return [...byMessage].map(([id, list]) => {
    list.sort((a, b) => order(a) - order(b) || Number(a.timestamp) - Number(b.timestamp));
    let status: string | null = null;
    const row = {
      id,
      status: "pending",
      recipient: list[0]?.recipient_id ?? "",
      ts: at(list[0] as Status),
      sent: null as string | null,
      delivered: null as string | null,
      read: null as string | null,
      failed: null as string | null,
      billable: null as boolean | null,
      model: null as string | null,
      category: null as string | null,
      type: null as string | null,
      conversation: null as string | null,
      origin: null as string | null,
      code: null as number | null,
      title: null as string | null,
    };
    for (const s of list) {
      const moving = advances(status, s.status);
      if (s.pricing && (moving || row.category === null)) {
        row.billable = s.pricing.billable ?? s.pricing.type === "regular";
        row.model = s.pricing.pricing_model ?? null;
        row.category = s.pricing.category?.toLowerCase() ?? null;
        row.type = s.pricing.type ?? null;
      }
      row.conversation ??= s.conversation?.id ?? null;
      row.origin ??= s.conversation?.origin?.type ?? null;
      const field = ({ sent: "sent", delivered: "delivered", read: "read", failed: "failed" } as const)[
        s.status as "sent"
      ];
      if (field && row[field] === null) row[field] = at(s);
      if (!moving) continue;
      status = s.status;
      row.status = s.status;
      if (s.status === "failed") {
        row.code = s.errors?.[0]?.code ?? null;
        row.title = s.errors?.[0]?.title ?? null;
      }
    }
    return row;
  });
}

// The stored record (b) merged with the batch's row (EXCLUDED): the status only forward, pricing
// from a forward status or where missing, timestamps and the conversation where missing, and
// a payable record stays payable (its one debit written).
const MOVES = advancesSql(`b.status`, `EXCLUDED.status`);
const PRICED = `(EXCLUDED."pricingCategory" IS NOT NULL AND (${MOVES} OR b."pricingCategory" IS NULL))`;
const priced = (col: string) => `"${col}" = CASE WHEN ${PRICED} THEN EXCLUDED."${col}" ELSE b."${col}" END`;
const firstOf = (col: string) => `"${col}" = COALESCE(b."${col}", EXCLUDED."${col}")`;
const TEMPLATE_TYPE = `CASE WHEN m.category IN ('marketing', 'marketing_lite') THEN 'marketing' WHEN m.category = 'utility' THEN 'utility'
  WHEN m.category LIKE 'authentication%' THEN 'authentication' WHEN m.category IN ('service', 'referral_conversion') THEN 'service' END`;
const PAYABLE = (billable: string, status: string) =>
  `(${billable} AND ${status} IN ('accepted', 'delivered', 'read'))`;

const applySql = `WITH s AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[],
      $7::timestamptz[], $8::timestamptz[], $9::bool[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
      $15::int[], $16::text[])
      AS s(wamid, status, recipient, ts, sent, delivered, read, failed, billable, model, category, type, conversation, origin, code, title)
  ), m AS (
    SELECT s.*, msg.id AS uid, msg."customerId", msg."senderId", msg."broadcastId", snd."phoneNumber" AS "senderPhone",
           snd."phoneNumberId", COALESCE((SELECT rc.rate FROM "RateCard" rc WHERE rc."pricingCategory" = s.category
             AND rc.scope IN (msg."customerId", 'global') ORDER BY rc.scope = 'global' LIMIT 1), 0) AS rate
      FROM s JOIN "Message" msg ON msg."providerMessageId" = s.wamid JOIN "Sender" snd ON snd.id = msg."senderId"
  ), up AS (
    INSERT INTO "BillingRecord" AS b (id, "customerId", "senderId", "phoneNumberId", "senderPhoneNumber", "messageId",
      "recipientId", status, billable, "billingClass", "pricingModel", "pricingCategory", "templateType", "pricingType", rate,
      currency, "conversationId", "conversationOriginType", "errorCode", "errorTitle", "messageTimestamp", "sentAt",
      "deliveredAt", "readAt", "failedAt", "createdAt", "updatedAt")
    SELECT 'bill_' || substr(md5(m.wamid), 1, 24), m."customerId", m."senderId", m."phoneNumberId", m."senderPhone", m.wamid,
      m.recipient, m.status, COALESCE(m.billable, false),
      CASE WHEN ${PAYABLE("COALESCE(m.billable, false)", "m.status")} THEN 'payable' ELSE 'free' END,
      m.model, m.category, ${TEMPLATE_TYPE}, m.type, CASE WHEN m.billable THEN m.rate ELSE 0 END, 'USD', m.conversation,
      m.origin, m.code, m.title, m.ts AT TIME ZONE 'UTC', m.sent AT TIME ZONE 'UTC', m.delivered AT TIME ZONE 'UTC',
      m.read AT TIME ZONE 'UTC', m.failed AT TIME ZONE 'UTC', ${UTC_NOW}, ${UTC_NOW}
    FROM m
    ON CONFLICT ("messageId") DO UPDATE SET
      status = CASE WHEN ${MOVES} THEN EXCLUDED.status ELSE b.status END,
      ${["billable", "pricingModel", "pricingCategory", "templateType", "pricingType", "rate"].map(priced).join(", ")},
      ${["sentAt", "deliveredAt", "readAt", "failedAt", "conversationId", "conversationOriginType"].map(firstOf).join(", ")},
      "errorCode" = CASE WHEN ${MOVES} AND EXCLUDED.status = 'failed' THEN EXCLUDED."errorCode" ELSE b."errorCode" END,
      "errorTitle" = CASE WHEN ${MOVES} AND EXCLUDED.status = 'failed' THEN EXCLUDED."errorTitle" ELSE b."errorTitle" END,
      "billingClass" = CASE WHEN b."billingClass" = 'payable' OR ${PAYABLE(
        `CASE WHEN ${PRICED} THEN EXCLUDED.billable ELSE b.billable END`,
        `CASE WHEN ${MOVES} THEN EXCLUDED.status ELSE b.status END`,
      )} THEN 'payable' ELSE 'free' END,
      "updatedAt" = ${UTC_NOW}
    RETURNING b.id, b."customerId", b."senderId", b."messageId", b.status, b."billingClass", b.rate, b."templateType", b."pricingCategory"
  ), debit AS (
    INSERT INTO "BillingTransaction" (id, "customerId", "senderId", "billingRecordId", "idempotencyKey", type, amount, currency,
      description, "templateType", "billingClass", "pricingCategory", "createdAt")
    SELECT 'txn_' || substr(md5(up.id), 1, 24), up."customerId", up."senderId", up.id, 'debit:' || up.id, 'debit', up.rate, 'USD',
           'Message ' || up."messageId", up."templateType", up."billingClass", up."pricingCategory", ${UTC_NOW}
      FROM up WHERE up."billingClass" = 'payable'
    ON CONFLICT ("idempotencyKey") DO NOTHING
  ), recipient AS (
    UPDATE "BroadcastRecipient" r SET status = up.status::"BroadcastRecipientStatus", "providerMessageId" = m.wamid,
           "errorCode" = CASE WHEN up.status = 'failed' THEN m.code ELSE r."errorCode" END,
           "failedAt" = CASE WHEN up.status = 'failed' THEN ${UTC_NOW} ELSE r."failedAt" END,
           "deliveredAt" = CASE WHEN up.status IN ('delivered', 'read') THEN COALESCE(r."deliveredAt", ${UTC_NOW}) ELSE r."deliveredAt" END,
           "lockedUntil" = NULL, "updatedAt" = ${UTC_NOW}
      FROM up JOIN m ON m.wamid = up."messageId"
     WHERE m."broadcastId" IS NOT NULL AND r."messageId" = m.uid AND up.status IN ('sent', 'delivered', 'read', 'failed')
       AND r.status IN ('sending', 'accepted', 'sent', 'delivered', 'read')
       AND (CASE WHEN up.status = 'failed' THEN 5 ELSE ${rankSql("up.status")} END) > ${rankSql("r.status::text")}
  ), ev AS (
    INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
    SELECT 'evt_' || substr(md5(a.wamid || a.status), 1, 24), m."customerId", m."senderId", 'message.status.' || a.status,
           'status:' || a.wamid || ':' || a.status,
           jsonb_build_object('type', 'message.status.' || a.status, 'data', jsonb_build_object('messageId', a.wamid, 'status', a.status)),
           ${UTC_NOW}
      FROM unnest($17::text[], $18::text[]) AS a(wamid, status) JOIN m ON m.wamid = a.wamid
     WHERE $19::bool OR EXISTS (SELECT 1 FROM "WebhookDestination" d WHERE d."senderId" = m."senderId" AND d.status = 'ACTIVE'
             AND ('message.status.' || a.status) = ANY(d.events))
    ON CONFLICT ("dedupeKey") DO NOTHING RETURNING id, "senderId", type
  ), dl AS (
    INSERT INTO "WebhookDelivery" (id, "eventId", "destinationId", "updatedAt")
    SELECT 'dlv_' || substr(md5(ev.id || d.id), 1, 24), ev.id, d.id, ${UTC_NOW}
      FROM ev JOIN "WebhookDestination" d ON d."senderId" = ev."senderId" AND d.status = 'ACTIVE' AND ev.type = ANY(d.events)
  )
  SELECT (SELECT array_agg(s.wamid) FROM s WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.wamid = s.wamid)) AS unknown,
         (SELECT count(pg_notify('switchboard_live', json_build_object('c', c, 'e', json_build_array(
            json_build_object('kind', 'conversations.changed')))::text)) FROM (SELECT DISTINCT "customerId" AS c FROM up) x) AS live`;

type Claimed = { id: string; body: string; young: boolean };

/** One batch in one transaction; the callbacks it claimed. */
async function processBatch(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const claimed = (
      await client.query<Claimed>(
        `UPDATE "ProviderCallback" c SET "processedAt" = ${UTC_NOW}, attempts = c.attempts + 1, "retryAt" = NULL
          WHERE c.id IN (SELECT id FROM "ProviderCallback" WHERE "processedAt" IS NULL
                  AND ("retryAt" IS NULL OR "retryAt" <= ${UTC_NOW}) ORDER BY "receivedAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING c.id, c.body, c."receivedAt" > ${UTC_NOW} - interval '2 minutes' AS young`,
        [BATCH],
      )
    ).rows;
    if (claimed.length === 0) {
      await client.query("COMMIT");
      return 0;
    }
    const owner = new Map<string, string[]>();
    const statuses: Status[] = [];
    for (const cb of claimed) {
      const body = JSON.parse(cb.body) as {
        entry?: { changes?: { field?: string; value?: { statuses?: Status[] } }[] }[];
      };
      for (const e of body.entry ?? [])
        for (const c of e.changes ?? [])
          for (const s of c.field === "messages" ? (c.value?.statuses ?? []) : []) {
            statuses.push(s);
            owner.set(s.id, [...(owner.get(s.id) ?? []), cb.id]);
          }
    }
    const rows = fold(statuses);
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    const { unknown } = (
      await client.query<{ unknown: string[] | null }>(applySql, [
        col("id"),
        col("status"),
        col("recipient"),
        col("ts"),
        col("sent"),
        col("delivered"),
        col("read"),
        col("failed"),
        col("billable"),
        col("model"),
        col("category"),
        col("type"),
        col("conversation"),
        col("origin"),
        col("code"),
        col("title"),
        statuses.map((s) => s.id),
        statuses.map((s) => s.status),
        EVERY_EVENT,
      ])
    ).rows[0] ?? { unknown: null };
    // Statuses of a send whose outcome is not written yet: their callbacks are looked at again.
    const young = new Set(claimed.filter((c) => c.young).map((c) => c.id));
    const again = [...new Set((unknown ?? []).flatMap((w) => owner.get(w) ?? []))].filter((id) => young.has(id));
    if (again.length > 0)
      await client.query(
        `UPDATE "ProviderCallback" SET "processedAt" = NULL, "retryAt" = ${UTC_NOW} + interval '1 second' WHERE id = ANY($1::text[])`,
        [again],
      );
    await client.query("COMMIT");
    return claimed.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The processor: batches back to back while there are any, else waits to be woken (or 500 ms). */
export function startBareProcessor(pool: pg.Pool): { wake: () => void; stop: () => void } {
  let wakeUp: (() => void) | undefined;
  let stopped = false;
  void (async () => {
    while (!stopped) {
      let n = 0;
      try {
        n = await processBatch(pool);
      } catch (error) {
        console.error("bare callback batch failed", error);
      }
      if (n === 0)
        await new Promise<void>((r) => {
          wakeUp = r;
          setTimeout(r, 500);
        });
    }
  })();
  return {
    wake: () => wakeUp?.(),
    stop: () => {
      stopped = true;
      wakeUp?.();
    },
  };
}
