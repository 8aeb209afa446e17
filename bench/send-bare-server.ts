// The bare baseline for bench/send.ts, written from scratch: node:http + pg, what a competent
// engineer would write for POST /api/v3/send (an approved template, priced, the balance
// checked) and POST /api/v3/messages (free-form text inside the contact's window), and
// nothing of the product's (no router, zod, Prisma, send pipeline or statement of its own):
//   the token: its SHA-256 looked up once and kept for a minute (revocation then waits that long);
//   one statement: the sender, whether the contact is blacklisted and their window;
//   templates, rates and the balance kept for 2 s per process;
//   one statement writes the message ("sending"), its conversation and thread entry;
//   the provider call (the built-in simulator in this process, as the lean server's);
//   one statement writes the outcome and the accepted event where a destination subscribes.
// The simulator's signed status callbacks come back over HTTP to /api/provider/webhook,
// checked and stored (bench/broadcast-bare-callbacks.ts receiveBare), not processed here.
// PORT, DATABASE_URL, PROVIDER_APP_SECRET, SIMULATOR_CALLBACK_URL.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { getProvider } from "@/lib/domains/provider/client";
import type { ProviderMessagePayload, ProviderSender } from "@/lib/domains/provider/types";
import { receiveBare } from "./broadcast-bare-callbacks";

pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (v) => new Date(`${v.replace(" ", "T")}Z`));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const provider = getProvider();
const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;

// Ids from a pooled random buffer: no system call per id.
let entropy = randomBytes(0);
function newId(prefix: string): string {
  if (entropy.length < 12) entropy = randomBytes(4096);
  const id = `${prefix}_${entropy.subarray(0, 12).toString("hex")}`;
  entropy = entropy.subarray(12);
  return id;
}

/** A value kept for `ttlMs` per key, one look-up at a time. */
function kept<T>(ttlMs: number, load: (key: string) => Promise<T>) {
  const map = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string) => {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = load(key);
    map.set(key, { at: Date.now(), value });
    value.catch(() => map.delete(key));
    return value;
  };
}

const tokens = kept(60_000, async (hash) => {
  const r = await pool.query<{ customerId: string; senderId: string | null }>(
    `SELECT "customerId", "senderId" FROM "ApiToken" WHERE hash = $1 AND "revokedAt" IS NULL
       AND ("expiresAt" IS NULL OR "expiresAt" > ${UTC_NOW})`,
    [hash],
  );
  return r.rows[0] ?? null;
});
const templates = kept(2_000, async (key) => {
  const [customerId, name, language] = JSON.parse(key) as string[];
  const r = await pool.query<{ category: string; providerTemplateId: string; status: string }>(
    `SELECT lower(category::text) AS category, "providerTemplateId", status::text AS status FROM "Template"
      WHERE "customerId" = $1 AND name = $2 AND language = $3`,
    [customerId, name, language],
  );
  return r.rows[0] ?? null;
});
const rates = kept(2_000, async (key) => {
  const [customerId, category] = JSON.parse(key) as string[];
  const r = await pool.query<{ rate: string }>(
    `SELECT rate FROM "RateCard" WHERE "pricingCategory" = $2 AND scope IN ($1, 'global') ORDER BY scope = 'global' LIMIT 1`,
    [customerId, category],
  );
  return Number(r.rows[0]?.rate ?? 0);
});
const balances = kept(2_000, async (customerId) => {
  const r = await pool.query<{ balance: string }>(
    `SELECT COALESCE(sum(CASE WHEN type = 'debit' THEN -amount ELSE amount END), 0) AS balance
       FROM "BillingTransaction" WHERE "customerId" = $1`,
    [customerId],
  );
  return Number(r.rows[0]?.balance ?? 0);
});

type SenderRow = ProviderSender & { id: string; blacklisted: boolean; windowExpiresAt: Date | null };

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** Writes the message before the call, calls, writes the outcome: the send itself. */
async function send(
  customerId: string,
  s: SenderRow,
  to: string,
  payload: ProviderMessagePayload,
  extra: { route: string; template?: { name: string; language: string; category: string; providerTemplateId: string } },
) {
  const id = newId("msg");
  const preview = extra.template
    ? `Template: ${extra.template.name}`
    : String((payload.text as { body?: string })?.body ?? "").slice(0, 100);
  const created = (
    await pool.query<{ createdAt: Date }>(
      `WITH m AS (
         INSERT INTO "Message" (id, "customerId", "senderId", recipient, type, "templateName", "templateLanguage",
           "pricingCategory", "sendRoute", "metaTemplateId", status, queued, attempts, payload, "createdAt", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'sending', false, 0, $11::jsonb, ${UTC_NOW}, ${UTC_NOW})
         RETURNING "createdAt"
       ), conv AS (
         INSERT INTO "Conversation" (id, "customerId", "senderId", "contactPhoneNumber", "lastMessageAt", "lastMessagePreview",
           "createdAt", "updatedAt")
         VALUES ($12, $2, $3, $4, ${UTC_NOW}, $13, ${UTC_NOW}, ${UTC_NOW})
         ON CONFLICT ("senderId", "contactPhoneNumber") DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt",
           "lastMessagePreview" = EXCLUDED."lastMessagePreview", "updatedAt" = EXCLUDED."updatedAt", status = 'OPEN', "closedAt" = NULL
         RETURNING id
       ), entry AS (
         INSERT INTO "ConversationMessage" (id, "customerId", "conversationId", direction, type, "messageId", "sentBy", "createdAt")
         SELECT $1, $2, conv.id, 'outbound', $5, $1, 'api', ${UTC_NOW} FROM conv
       )
       SELECT "createdAt" FROM m`,
      [
        id,
        customerId,
        s.id,
        to,
        payload.type,
        extra.template?.name ?? null,
        extra.template?.language ?? null,
        extra.template?.category ?? "service",
        extra.route,
        extra.template?.providerTemplateId ?? null,
        JSON.stringify(payload),
        newId("conv"),
        preview,
      ],
    )
  ).rows[0];
  const outcome = await provider.sendMessage(s, payload, { pricingCategory: extra.template?.category ?? "service" });
  await pool.query(
    `WITH m AS (
       UPDATE "Message" SET status = $2, "providerMessageId" = $3, "errorCode" = $4, "errorMessage" = $5, attempts = 1,
              "updatedAt" = ${UTC_NOW} WHERE id = $1 AND status = 'sending' RETURNING id)
     INSERT INTO "WebhookEvent" (id, "customerId", "senderId", type, "dedupeKey", payload, "createdAt")
     SELECT $6, $7, $8, 'message.status.accepted', 'status:' || $3 || ':accepted',
            jsonb_build_object('type', 'message.status.accepted', 'data', jsonb_build_object('messageId', $3::text, 'messageUid', $1::text)),
            ${UTC_NOW}
       FROM m WHERE $2 = 'accepted' AND EXISTS (SELECT 1 FROM "WebhookDestination" d WHERE d."senderId" = $8 AND d.status = 'ACTIVE'
         AND 'message.status.accepted' = ANY(d.events))
     ON CONFLICT ("dedupeKey") DO NOTHING`,
    [
      id,
      outcome.ok ? "accepted" : "failed",
      outcome.ok ? outcome.messageId : null,
      outcome.ok ? null : outcome.code,
      outcome.ok ? null : outcome.message,
      newId("evt"),
      customerId,
      s.id,
    ],
  );
  if (!outcome.ok) throw new Refused(outcome.retryable ? 429 : 400, `PROVIDER_${outcome.code}`);
  return { id, providerMessageId: outcome.messageId, createdAt: created?.createdAt ?? new Date() };
}

async function handle(path: string, auth: string | undefined, raw: string): Promise<unknown> {
  const hash = createHash("sha256")
    .update(auth?.replace(/^Bearer /, "") ?? "")
    .digest("hex");
  const token = auth ? await tokens(hash) : null;
  if (!token) throw new Refused(401, "INVALID_AUTH_TOKEN");
  const body = JSON.parse(raw) as {
    senderId?: string;
    to?: string;
    template?: { name?: string; language?: string };
    text?: { body?: string };
    type?: string;
  };
  const to = body.to?.startsWith("+") ? body.to : `+${body.to ?? ""}`;
  if (typeof body.senderId !== "string" || !/^\+\d{6,15}$/.test(to)) throw new Refused(400, "VALIDATION_FAILED");
  const [s] = (
    await pool.query<SenderRow>(
      `SELECT s.id, s."phoneNumber", s."phoneNumberId", s."wabaId", s."throughputPerSecond", s."messagingLimit",
              EXISTS (SELECT 1 FROM "BlacklistEntry" b WHERE b."senderId" = s.id AND b."phoneNumber" = $3) AS blacklisted,
              (SELECT c."windowExpiresAt" FROM "Conversation" c WHERE c."senderId" = s.id AND c."contactPhoneNumber" = $3) AS "windowExpiresAt"
         FROM "Sender" s WHERE s."customerId" = $1 AND s."phoneNumber" = $2 AND s."deactivatedAt" IS NULL
          AND ($4::text IS NULL OR s.id = $4)`,
      [token.customerId, body.senderId, to, token.senderId],
    )
  ).rows;
  if (!s) throw new Refused(404, "SENDER_NOT_FOUND");
  if (s.blacklisted) throw new Refused(400, "RECIPIENT_BLACKLISTED");
  if (path === "/api/v3/send") {
    const name = body.template?.name ?? "";
    const language = body.template?.language ?? "en";
    const t = await templates(JSON.stringify([token.customerId, name, language]));
    if (t?.status !== "APPROVED") throw new Refused(400, "TEMPLATE_NOT_APPROVED");
    const [rate, balance] = await Promise.all([
      rates(JSON.stringify([token.customerId, t.category])),
      balances(token.customerId),
    ]);
    if (balance < rate) throw new Refused(402, "INSUFFICIENT_BALANCE");
    const payload: ProviderMessagePayload = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to,
      type: "template",
      template: { name, language: { code: language } },
    };
    const m = await send(token.customerId, s, to, payload, { route: "send", template: { name, language, ...t } });
    return {
      success: true,
      message: "Message accepted by the provider",
      data: {
        messageUid: m.id,
        messageId: m.providerMessageId,
        status: "accepted",
        queued: false,
        senderId: s.phoneNumber,
        phoneNumberId: s.phoneNumberId,
        recipient: to,
        type: "template",
        sendRoute: "send",
        template: { name, language, category: t.category.toUpperCase() },
        createdAt: m.createdAt.toISOString(),
      },
    };
  }
  if (body.type !== "text" || typeof body.text?.body !== "string") throw new Refused(400, "VALIDATION_FAILED");
  if (!s.windowExpiresAt || s.windowExpiresAt.getTime() <= Date.now()) throw new Refused(400, "WINDOW_CLOSED");
  const payload: ProviderMessagePayload = {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "text",
    text: { body: body.text.body },
  };
  const m = await send(token.customerId, s, to, payload, { route: "messages" });
  return {
    messaging_product: "whatsapp",
    contacts: [{ input: body.to, wa_id: to.slice(1) }],
    messages: [{ id: m.providerMessageId, message_status: "accepted" }],
  };
}

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      try {
        if (req.url === "/api/provider/webhook") {
          const signature = req.headers["x-hub-signature-256"];
          const status = await receiveBare(pool, raw, typeof signature === "string" ? signature : null, () => {});
          return reply(status, {});
        }
        if (req.method !== "POST") return reply(200, { ready: true });
        reply(200, await handle(req.url ?? "", req.headers.authorization, raw.toString("utf8")));
      } catch (error) {
        if (error instanceof Refused) reply(error.status, { success: false, error_code: error.code });
        else reply(500, { success: false, message: String(error) });
      }
    });
  })
  .listen(Number(process.env.PORT ?? 3499), "127.0.0.1", () => console.log("bare send server ready"));
