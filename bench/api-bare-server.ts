// The bare baseline for bench/api.ts: node:http + pg running the very SQL the billing
// service runs (billingListSql), with the same shared count, and nothing else (no
// router, no auth, no Prisma, no envelope). PORT, DATABASE_URL, BENCH_CUSTOMER_ID.
import http from "node:http";
import pg from "pg";
import type { Principal } from "@/lib/auth/principal";
import { cachedCount } from "@/lib/billing/count-cache";
import { billingListSql } from "@/lib/billing/messages";
import { BillingMessagesQuery } from "@/lib/billing/schemas";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const principal: Principal = { customerId: process.env.BENCH_CUSTOMER_ID ?? "", plan: "pro", via: "token" };

http
  .createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const q = BillingMessagesQuery.parse(Object.fromEntries(url.searchParams));
      const sql = billingListSql(principal, undefined, q);
      const rows = (await pool.query(sql.page.text, sql.page.values)).rows;
      const { page: _p, limit: _l, sortBy: _s, sortOrder: _o, ...filters } = q;
      const total = await cachedCount(JSON.stringify(filters), async () => {
        const r = await pool.query(sql.count.text, sql.count.values);
        return Number(r.rows[0]?.n ?? 0);
      });
      const body = JSON.stringify({ success: true, data: { billingRecords: rows, pagination: { total } } });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(body);
    } catch (error) {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ success: false, message: String(error) }));
    }
  })
  .listen(Number(process.env.PORT ?? 3099), "127.0.0.1");
