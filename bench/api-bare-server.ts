// The bare baseline for bench/api.ts: node:http + pg running the very SQL the services run
// (billingListSql with the same shared count; the conversation list with its shared count,
// and the conversation look-up plus thread page of lib/domains/conversations), and nothing else (no
// router, no auth, no Prisma, no envelope). PORT, DATABASE_URL, BENCH_CUSTOMER_ID.
import http from "node:http";
import pg from "pg";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { cachedCount } from "@/lib/domains/billing/count-cache";
import { billingListSql } from "@/lib/domains/billing/messages";
import { BillingMessagesQuery } from "@/lib/domains/billing/schemas";
import { conversationByUidSql, conversationListSql, threadSql } from "@/lib/domains/conversations/list-sql";
import { pageTotal } from "@/lib/domains/conversations/service";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const principal = systemPrincipal(process.env.BENCH_CUSTOMER_ID ?? "");
const run = (sql: { text: string; values: unknown[] }) => pool.query(sql.text, sql.values);

async function answer(url: URL): Promise<unknown> {
  const thread = /^\/api\/v3\/conversations\/([^/]+)\/messages$/.exec(url.pathname);
  if (thread) {
    const conversation = (await run(conversationByUidSql(principal, undefined, thread[1] ?? ""))).rows[0];
    const sql = threadSql(principal.customerId, conversation.id, { page: 1, limit: 50 });
    const rows = (await run(sql.page)).rows;
    const total = rows.length < 50 ? rows.length : (await run(sql.count)).rows[0]?.total;
    return { messages: rows, pagination: { total } };
  }
  if (url.pathname === "/api/v3/conversations") {
    const sql = conversationListSql(principal, undefined, { page: 1, limit: 50 }, "recent");
    const rows = (await run(sql.page)).rows;
    const total = await pageTotal("list", { page: 1, limit: 50 }, rows.length, async () => {
      return Number((await run(sql.count)).rows[0]?.total ?? 0);
    });
    return { conversations: rows, pagination: { total } };
  }
  const q = BillingMessagesQuery.parse(Object.fromEntries(url.searchParams));
  const sql = billingListSql(principal, undefined, q);
  const rows = (await run(sql.page)).rows;
  const { page: _p, limit: _l, sortBy: _s, sortOrder: _o, ...filters } = q;
  const total = await cachedCount(JSON.stringify(filters), async () => {
    const r = await run(sql.count);
    return Number(r.rows[0]?.n ?? 0);
  });
  return { billingRecords: rows, pagination: { total } };
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
