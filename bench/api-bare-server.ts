// The bare baseline for bench/api.ts, written from scratch: node:http + pg, the SQL a
// competent engineer would write for the same pages (docs/api/billing.md, docs/conversations.md)
// and nothing of the product's (no router, auth, zod, Prisma, envelope, SQL builder or cache):
//   billing list: one statement for the page (an index range scan with LIMIT; from offset 1,000
//     a deferred join: the ids walked in the index, then the page's rows read); the total from
//     a partial page, else an exact count shared per filter set for 5 s (one count at a time);
//   conversation list: one statement (the page with its sender, assignee and blacklist flag);
//   one thread: one statement (the conversation checked and its page with each outbound
//     message's status) and a count only for a full page.
// Rows are mapped to the public field names in JS, as any API does. No authentication: the
// lean server's token check, limits and validation are what the ratio prices.
// PORT, DATABASE_URL, BENCH_CUSTOMER_ID.
import http from "node:http";
import pg from "pg";

// timestamp(3) columns hold UTC (the schema's convention): read them as such.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (v) => new Date(`${v.replace(" ", "T")}Z`));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const customerId = process.env.BENCH_CUSTOMER_ID ?? "";
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Exact counts per filter set, shared for 5 s (one count at a time per set). */
const counts = new Map<string, { at: number; n: Promise<number> }>();
function sharedCount(key: string, count: () => Promise<number>): Promise<number> {
  const hit = counts.get(key);
  if (hit && Date.now() - hit.at < 5_000) return hit.n;
  const n = count();
  counts.set(key, { at: Date.now(), n });
  n.catch(() => counts.delete(key));
  return n;
}

/** The total: a partial page states it; a full one needs the count. */
async function total(key: string, offset: number, limit: number, rows: number, count: () => Promise<number>) {
  if ((rows > 0 && rows < limit) || (rows === 0 && offset === 0)) return offset + rows;
  return Math.max(await sharedCount(key, count), offset + rows);
}
const pagination = (page: number, limit: number, n: number, rows: number) => ({
  page,
  limit,
  total: n,
  totalPages: Math.ceil(n / limit),
  count: rows,
  hasMore: page * limit < n,
});

const BILLING_SORT: Record<string, string> = {
  created_at: "createdAt",
  message_timestamp: "messageTimestamp",
  pricing_category: "pricingCategory",
  status: "status",
  rate: "rate",
};
const BILLING_COLUMNS = [
  "id",
  "messageId",
  "phoneNumberId",
  "senderPhoneNumber",
  "recipientId",
  "status",
  "billable",
  "billingClass",
  "pricingModel",
  "pricingCategory",
  "templateType",
  "pricingType",
  "rate",
  "conversationId",
  "conversationOriginType",
  "messageTimestamp",
  "createdAt",
  "updatedAt",
];
const columns = (alias: string) => BILLING_COLUMNS.map((c) => `${alias}."${c}"`).join(", ");
type BillingRow = Record<string, unknown> & {
  id: string;
  rate: string;
  messageTimestamp: Date;
  createdAt: Date;
  updatedAt: Date;
};

async function billing(q: URLSearchParams) {
  const page = Math.max(1, Number(q.get("page") ?? 1) || 1);
  const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 50) || 50));
  const offset = (page - 1) * limit;
  const where = [`r."customerId" = $1`];
  const values: unknown[] = [customerId];
  const add = (sql: string, v: unknown) => {
    values.push(v);
    where.push(sql.replace("?", `$${values.length}`));
  };
  const status = q.get("status");
  if (status) add(`r.status = ?`, status);
  const templateType = q.get("templateType");
  if (templateType) add(`r."templateType" = ?`, templateType);
  const billable = q.get("billable");
  if (billable === "payable" || billable === "free") add(`r."billingClass" = ?`, billable);
  else if (billable === "true" || billable === "false") add(`r.billable = ?`, billable === "true");
  const column = BILLING_SORT[q.get("sortBy") ?? "created_at"] ?? "createdAt";
  const dir = q.get("sortOrder")?.toUpperCase() === "ASC" ? "ASC" : "DESC";
  const order = (a: string) => `${a}."${column}" ${dir}, ${a}.id ${dir}`;
  const filter = where.join(" AND ");
  // Deep pages: the offset walked in the index for ids only, then just the page's rows read.
  const pageSql =
    offset < 1_000
      ? `SELECT ${columns("r")} FROM "BillingRecord" r WHERE ${filter} ORDER BY ${order("r")} LIMIT ${limit} OFFSET ${offset}`
      : `SELECT ${columns("b")} FROM (SELECT r.id FROM "BillingRecord" r WHERE ${filter}
           ORDER BY ${order("r")} LIMIT ${limit} OFFSET ${offset}) p JOIN "BillingRecord" b ON b.id = p.id ORDER BY ${order("b")}`;
  const rows = (await pool.query<BillingRow>(pageSql, values)).rows;
  const n = await total(JSON.stringify([status, templateType, billable]), offset, limit, rows.length, async () =>
    Number((await pool.query(`SELECT count(*)::int AS n FROM "BillingRecord" r WHERE ${filter}`, values)).rows[0]?.n),
  );
  return {
    billingRecords: rows.map(({ id, rate, messageTimestamp, createdAt, updatedAt, ...r }) => ({
      billingUid: id,
      ...r,
      rate: Number(rate),
      messageTimestamp: iso(messageTimestamp),
      createdAt: iso(createdAt),
      updatedAt: iso(updatedAt),
    })),
    pagination: pagination(page, limit, n, rows.length),
  };
}

type ConversationRow = {
  id: string;
  senderPhoneNumber: string;
  phoneNumberId: string;
  contactPhoneNumber: string;
  contactName: string | null;
  status: string;
  unreadCount: number;
  lastMessageAt: Date;
  lastInboundAt: Date | null;
  windowExpiresAt: Date | null;
  lastMessagePreview: string;
  blacklisted: boolean;
  assigneeEmail: string | null;
  assigneeName: string | null;
  handoffAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

async function conversations(q: URLSearchParams) {
  const page = Math.max(1, Number(q.get("page") ?? 1) || 1);
  const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 50) || 50));
  const offset = (page - 1) * limit;
  const rows = (
    await pool.query<ConversationRow>(
      `SELECT c.id, s."phoneNumber" AS "senderPhoneNumber", s."phoneNumberId", c."contactPhoneNumber", c."contactName",
              c.status::text AS status, c."unreadCount", c."lastMessageAt", c."lastInboundAt", c."windowExpiresAt",
              c."lastMessagePreview", c."handoffAt", c."createdAt", c."updatedAt", a.email AS "assigneeEmail", a.name AS "assigneeName",
              EXISTS (SELECT 1 FROM "BlacklistEntry" bl WHERE bl."senderId" = c."senderId"
                        AND bl."phoneNumber" = c."contactPhoneNumber") AS blacklisted
         FROM "Conversation" c JOIN "Sender" s ON s.id = c."senderId" LEFT JOIN "User" a ON a.id = c."assigneeId"
        WHERE c."customerId" = $1 ORDER BY c."lastMessageAt" DESC, c.id DESC LIMIT $2 OFFSET $3`,
      [customerId, limit, offset],
    )
  ).rows;
  const n = await total("conversations", offset, limit, rows.length, async () =>
    Number(
      (await pool.query(`SELECT count(*)::int AS n FROM "Conversation" WHERE "customerId" = $1`, [customerId])).rows[0]
        ?.n,
    ),
  );
  const now = Date.now();
  return {
    conversations: rows.map((c) => ({
      conversationUid: c.id,
      senderId: c.senderPhoneNumber,
      phoneNumberId: c.phoneNumberId,
      contactPhoneNumber: c.contactPhoneNumber,
      contactName: c.contactName,
      status: c.status,
      unreadCount: c.unreadCount,
      lastMessageAt: iso(c.lastMessageAt),
      lastInboundAt: iso(c.lastInboundAt),
      windowExpiresAt: iso(c.windowExpiresAt),
      windowOpen: c.windowExpiresAt !== null && c.windowExpiresAt.getTime() > now,
      lastMessagePreview: c.lastMessagePreview,
      blacklisted: c.blacklisted,
      assignee: c.assigneeEmail ? { email: c.assigneeEmail, name: c.assigneeName } : null,
      waitingForPerson: c.handoffAt !== null,
      createdAt: iso(c.createdAt),
      updatedAt: iso(c.updatedAt),
    })),
    pagination: pagination(page, limit, n, rows.length),
  };
}

type ThreadRow = {
  id: string;
  direction: string;
  type: string;
  content: unknown;
  sentBy: string;
  sentByLabel: string | null;
  createdAt: Date;
  payload: unknown;
  messageStatus: string | null;
  deliveryStatus: string | null;
};

async function thread(uid: string, q: URLSearchParams) {
  const page = Math.max(1, Number(q.get("page") ?? 1) || 1);
  const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 50) || 50));
  const offset = (page - 1) * limit;
  const rows = (
    await pool.query<ThreadRow & { found: boolean }>(
      `WITH conv AS (SELECT id FROM "Conversation" WHERE id = $1 AND "customerId" = $2)
       SELECT true AS found, e.id, e.direction, e.type, e.content, e."sentBy", e."sentByLabel", e."createdAt",
              m.payload, m.status AS "messageStatus", b.status AS "deliveryStatus"
         FROM conv JOIN "ConversationMessage" e ON e."conversationId" = conv.id
         LEFT JOIN "Message" m ON m.id = e."messageId" LEFT JOIN "BillingRecord" b ON b."messageId" = m."providerMessageId"
        ORDER BY e."createdAt" DESC, e.id DESC LIMIT $3 OFFSET $4`,
      [uid, customerId, limit, offset],
    )
  ).rows;
  const n = await total(`thread:${uid}`, offset, limit, rows.length, async () =>
    Number(
      (await pool.query(`SELECT count(*)::int AS n FROM "ConversationMessage" WHERE "conversationId" = $1`, [uid]))
        .rows[0]?.n,
    ),
  );
  return {
    messages: rows.map((e) => ({
      messageUid: e.id,
      direction: e.direction,
      type: e.type,
      content: e.direction === "outbound" ? e.payload : e.content,
      status: e.direction === "outbound" ? (e.deliveryStatus ?? e.messageStatus) : null,
      sentBy: e.sentBy,
      sentByLabel: e.sentByLabel,
      createdAt: iso(e.createdAt),
    })),
    pagination: pagination(page, limit, n, rows.length),
  };
}

async function answer(url: URL): Promise<unknown> {
  const uid = /^\/api\/v3\/conversations\/([^/]+)\/messages$/.exec(url.pathname)?.[1];
  if (uid) return thread(uid, url.searchParams);
  if (url.pathname === "/api/v3/conversations") return conversations(url.searchParams);
  if (url.pathname === "/api/v3/billing/messages") return billing(url.searchParams);
  return { ready: true };
}

http
  .createServer(async (req, res) => {
    try {
      const data = await answer(new URL(req.url ?? "/", "http://localhost"));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ success: true, data }));
    } catch (error) {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ success: false, message: String(error) }));
    }
  })
  .listen(Number(process.env.PORT ?? 3099), "127.0.0.1");
