// Index proof for the inbox (docs/conversations.md): at 100,000 conversations and 2,000,000
// thread messages of one customer (PostgreSQL; a smaller set on PGlite), every list and filter
// of GET /conversations and the inbox, in both orders, reads its page as ONE index range
// scan in order (no sort, no sequential scan), and the thread page likewise. Counts must
// be able to use an index (EXPLAIN with enable_seqscan off, as billing-indexes.test.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import type { Prisma } from "@/lib/generated/prisma/client";
import { conversationListSql, type ListFilters, threadSql } from "./list-sql";
import { LIST_ORDERS } from "./schemas";

const FULL = process.env.TEST_DB === "postgres";
const CONVERSATIONS = FULL ? 100_000 : 2_000;
const PER_CONVERSATION = 20; // 2,000,000 thread messages at full size
const BUSIEST_EXTRA = FULL ? 2_000 : 500;

const tag = `cust_idx_${randomBytes(4).toString("hex")}`;
const senders = [`${tag}_s1`, `${tag}_s2`];
const agentId = `${tag}_agent`; // a member with every fourth conversation assigned: "Mine" as an agent sees it
const principal: Principal = systemPrincipal(tag);
let busiest = "";

/**
 * Where the proof's rows live. On PostgreSQL, a database of its own, migrated here and
 * dropped afterwards: dropping it takes a moment where deleting 2,100,000 rows by cascade
 * took minutes, and no other test file's rows or writes move its plans. PGlite serves one
 * database: there the run's own, and the customer is deleted afterwards (a small set).
 */
let pool: pg.Pool;
let scratch: { admin: pg.Client; name: string } | undefined;

beforeAll(async () => {
  const runUrl = inject("databaseUrl");
  let url = runUrl;
  if (FULL) {
    const admin = new pg.Client({ connectionString: runUrl });
    await admin.connect();
    const name = `${new URL(runUrl).pathname.slice(1)}_idx`.slice(0, 63);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    scratch = { admin, name };
    const u = new URL(runUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    await migrate(url);
  }
  pool = new pg.Pool({ connectionString: url, max: 2 });
  await seed();
}, 600_000);

afterAll(async () => {
  if (!scratch) await pool?.query(`DELETE FROM "Customer" WHERE "id" = $1`, [tag]);
  await pool?.end();
  if (scratch) {
    // pg's Pool.end() resolves once its clients are told to end, not once their backends are gone.
    // A FORCE drop before then terminates a client still closing, and its error (57P01) reaches no
    // listener: an uncaught exception that fails the whole run with every test passed. So the drop
    // waits (a bounded while) for the database's other sessions to end first.
    await sessionsGone(scratch.admin, scratch.name);
    await scratch.admin.query(`DROP DATABASE IF EXISTS "${scratch.name}" WITH (FORCE)`);
    await scratch.admin.end();
  }
}, 600_000);

/** Resolves when no session but this one is connected to `database`, or after 10 s. */
async function sessionsGone(admin: pg.Client, database: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [database],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function seed() {
  // In its own database, the bulk rows go in as a restore does: the secondary indexes of the
  // two tables built once after the rows (not maintained row by row) and no foreign-key
  // trigger per row (session_replication_role; the rows are made consistent here).
  const c = await pool.connect();
  try {
    const indexes = FULL ? await withoutIndexes(c, ["Conversation", "ConversationMessage"]) : [];
    if (FULL) await c.query("SET session_replication_role = replica");
    await rows(c);
    if (FULL) {
      await c.query("RESET session_replication_role");
      for (const definition of indexes) await c.query(definition);
    }
    await c.query(`VACUUM ANALYZE "Conversation"`);
    await c.query(`VACUUM ANALYZE "ConversationMessage"`);
  } finally {
    c.release();
  }
}

/** The customer, its two senders and agent, the conversations and their threads. */
async function rows(c: pg.PoolClient) {
  await c.query(`INSERT INTO "Customer" ("id", "name", "updatedAt") VALUES ($1, 'Index proof', now())`, [tag]);
  await c.query(
    `INSERT INTO "Sender" ("id", "customerId", "phoneNumber", "phoneNumberId", "updatedAt")
     VALUES ($2, $1, '+1555' || right($2, 7), $2, now()), ($3, $1, '+1556' || right($3, 7), $3, now())`,
    [tag, ...senders],
  );
  await c.query(
    `INSERT INTO "User" ("id", "customerId", "email", "passwordHash") VALUES ($2, $1, $2 || '@example.test', 'x')`,
    [tag, agentId],
  );
  await c.query(
    `INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "contactName", "status",
       "unreadCount", "unread", "lastMessageAt", "lastInboundAt", "windowExpiresAt", "lastMessagePreview",
       "createdAt", "updatedAt")
     SELECT 'conv_' || substr(md5($1 || g), 1, 24), $1, CASE WHEN g % 2 = 0 THEN $2 ELSE $3 END,
       '+1999' || lpad(g::text, 8, '0'), 'Contact ' || g,
       (CASE WHEN g % 10 = 0 THEN 'CLOSED' ELSE 'OPEN' END)::"ConversationStatus",
       CASE WHEN g % 5 = 0 THEN 2 ELSE 0 END, g % 5 = 0,
       timestamp '2026-01-01' + g * interval '1 minute', timestamp '2026-01-01' + g * interval '1 minute',
       timestamp '2026-01-02' + g * interval '1 minute', 'Hello ' || g, timestamp '2026-01-01', timestamp '2026-01-01'
     FROM generate_series(1, $4::int) AS g`,
    [tag, ...senders, CONVERSATIONS],
  );
  await c.query(
    `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "sentBy", "createdAt")
     SELECT 'cmsg_' || substr(c."id", 6) || '_' || k, $1, c."id", 'inbound', 'text', 'contact',
       c."lastMessageAt" - k * interval '1 minute'
     FROM "Conversation" c CROSS JOIN generate_series(1, $2::int) AS k
     WHERE c."customerId" = $1`,
    [tag, PER_CONVERSATION],
  );
  await c.query(
    `UPDATE "Conversation" SET "assigneeId" = $2 WHERE "customerId" = $1 AND right("contactPhoneNumber", 1) IN ('0', '4', '8')`,
    [tag, agentId],
  );
  const found = await c.query<{ id: string }>(
    `SELECT "id" FROM "Conversation" WHERE "customerId" = $1 ORDER BY "lastMessageAt" DESC LIMIT 1`,
    [tag],
  );
  busiest = found.rows[0]?.id ?? "";
  // The busiest thread is long, as the one a deep page is read from: with 20 entries, like
  // every other, a bitmap scan and a sort of 20 rows tie with the range scan, and the
  // planner's pick turned on what other test files had written to the shared database.
  await c.query(
    `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "sentBy", "createdAt")
     SELECT 'cmsg_' || substr($2, 6) || '_x' || k, $1, $2, 'inbound', 'text', 'contact',
       timestamp '2025-12-01' + k * interval '1 second'
     FROM generate_series(1, $3::int) AS k`,
    [tag, busiest, BUSIEST_EXTRA],
  );
}

/** Drops the tables' indexes that back no constraint (the primary keys stay); returns the statements that make them again. */
async function withoutIndexes(c: pg.PoolClient, tables: string[]): Promise<string[]> {
  const { rows } = await c.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition
       FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
    [tables],
  );
  for (const r of rows) await c.query(`DROP INDEX "${r.name}"`);
  return rows.map((r) => r.definition);
}

/**
 * Fresh statistics before each case's plans (on PGlite, other test files write
 * conversations to the same database meanwhile). Once per case, not per plan: an ANALYZE of
 * 2,000,000 rows costs more than the case's plans.
 */
async function analyzed() {
  await pool.query(`ANALYZE "Conversation"`);
  await pool.query(`ANALYZE "ConversationMessage"`);
}

async function explain(sql: Prisma.Sql, seqscan = true): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (!seqscan) await client.query("SET LOCAL enable_seqscan = off");
    const { rows } = await client.query<Record<string, string>>(`EXPLAIN ${sql.text}`, sql.values as unknown[]);
    await client.query("COMMIT");
    return rows.map((r) => Object.values(r).join(" ")).join("\n");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

/** One ordered range scan of a Conversation index: no sort node, no sequential scan. */
function expectRangeScan(plan: string, table: "Conversation" | "ConversationMessage") {
  expect(plan, plan).not.toMatch(/Seq Scan/);
  expect(plan, plan).not.toMatch(/Sort/);
  expect(plan, plan).toMatch(new RegExp(`Index (Only )?Scan( Backward)? using "${table}_(customerId|conversationId)_`));
  expect(plan.match(/Index (Only )?Scan/g), plan).toHaveLength(1);
}

function expectIndexed(plan: string) {
  expect(plan, plan).not.toMatch(/Seq Scan on "Conversation/);
  expect(plan, plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)? (using|on) "Conversation/);
}

// `search` matches a substring of the number or name, which no btree orders: its page is the
// customer's (or sender's) index range with a filter, and the few matches are sorted. The
// planner may prefer a sequential scan on a table holding almost only this customer, so
// those cases prove the index path with enable_seqscan off.
/** Stands for agentId in FILTERS (made in beforeAll). */
const AGENT = "the agent";
const FILTERS: [string, ListFilters, boolean][] = [
  ["customer only", {}, false],
  ["senderId", {}, true],
  ["status", { status: "CLOSED" }, false],
  ["unread", { unread: true }, false],
  ["status + unread", { status: "OPEN", unread: true }, false],
  ["senderId + status", { status: "OPEN" }, true],
  ["senderId + unread", { unread: true }, true],
  ["senderId + status + unread", { status: "CLOSED", unread: true }, true],
  // An assignee with conversations (an unknown one holds no rows, and any plan reads none).
  ["assignee (Mine)", { assigneeId: AGENT }, false],
  ["assignee + unread", { assigneeId: AGENT, unread: true }, false],
  ["search by number", { search: "99900012" }, false],
  ["search by name", { search: "contact 77" }, true],
];

describe(`conversation lists at ${CONVERSATIONS} conversations and ${CONVERSATIONS * PER_CONVERSATION} messages`, () => {
  for (const [name, given, bySender] of FILTERS) {
    it(`${name}: page 1 and page 100 are one index range scan in both orders; the count uses an index`, async () => {
      await analyzed();
      const filters = given.assigneeId === AGENT ? { ...given, assigneeId: agentId } : given;
      const senderId = bySender ? senders[0] : undefined;
      for (const order of LIST_ORDERS) {
        for (const page of [1, 100]) {
          const { ids, page: full } = conversationListSql(principal, senderId, { ...filters, page, limit: 50 }, order);
          if (filters.search) expectIndexed(await explain(ids, false));
          // At the small PGlite size a sequential scan can be cheapest: prove the index path there.
          else expectRangeScan(await explain(ids, FULL), "Conversation");
          expect(await explain(full, FULL && !filters.search)).not.toMatch(/Seq Scan on "Conversation"/);
        }
      }
      const { count } = conversationListSql(principal, senderId, { ...filters, page: 1, limit: 50 }, "recent");
      expectIndexed(await explain(count, false));
    });
  }

  it("the thread: newest first, page 1 and a deep page, one index range scan; count on the index", async () => {
    await analyzed();
    for (const page of [1, 3]) {
      const { ids, page: full, count } = threadSql(tag, busiest, { page, limit: 5 });
      expectRangeScan(await explain(ids, FULL), "ConversationMessage");
      expect(await explain(full, FULL)).not.toMatch(/Seq Scan on "ConversationMessage"/);
      expect(await explain(count, false)).toMatch(
        /(Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)? (using|on) "ConversationMessage_conversationId_/,
      );
    }
  });
});
