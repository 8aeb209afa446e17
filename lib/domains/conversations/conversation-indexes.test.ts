// Index proof for the inbox (docs/conversations.md): at 100,000 conversations and 2,000,000
// thread messages of one customer (PostgreSQL; a smaller set on PGlite), every list and filter
// of GET /conversations and the inbox, in both orders, reads its page as ONE index range
// scan in order (no sort, no sequential scan), and the thread page likewise. Counts must
// be able to use an index (EXPLAIN with enable_seqscan off, as billing-indexes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asBackgroundWork } from "@/lib/core/db-context";
import { db } from "@/lib/db";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { conversationListSql, type ListFilters, threadSql } from "./list-sql";
import { LIST_ORDERS } from "./schemas";

const FULL = process.env.TEST_DB === "postgres";
const CONVERSATIONS = FULL ? 100_000 : 2_000;
const PER_CONVERSATION = 20; // 2,000,000 thread messages at full size
const BUSIEST_EXTRA = FULL ? 2_000 : 500;

let me: TestCustomer;
let principal: Principal;
let busiest = "";
/** A member of the customer with every fourth conversation assigned: "Mine" as an agent sees it. */
let agentId = "";

// The seeding and clean-up write millions of rows: background work's connections, which have
// no statement timeout (docs/database.md "Connections").
beforeAll(() => asBackgroundWork(seed), 600_000);

async function seed() {
  me = await createTestCustomer();
  principal = systemPrincipal(me.customer.id);
  const tag = me.customer.id;
  await db.$executeRawUnsafe(
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
    tag,
    me.sender.id,
    me.otherSender.id,
    CONVERSATIONS,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "sentBy", "createdAt")
     SELECT 'cmsg_' || substr(c."id", 6) || '_' || k, $1, c."id", 'inbound', 'text', 'contact',
       c."lastMessageAt" - k * interval '1 minute'
     FROM "Conversation" c CROSS JOIN generate_series(1, $2::int) AS k
     WHERE c."customerId" = $1`,
    tag,
    PER_CONVERSATION,
  );
  agentId = (await db.user.create({ data: { customerId: tag, email: `agent-${tag}@example.test`, passwordHash: "x" } }))
    .id;
  await db.$executeRawUnsafe(
    `UPDATE "Conversation" SET "assigneeId" = $2 WHERE "customerId" = $1 AND right("contactPhoneNumber", 1) IN ('0', '4', '8')`,
    tag,
    agentId,
  );
  const [row] = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT "id" FROM "Conversation" WHERE "customerId" = $1 ORDER BY "lastMessageAt" DESC LIMIT 1`,
    tag,
  );
  busiest = row?.id ?? "";
  // The busiest thread is long, as the one a deep page is read from: with 20 entries, like
  // every other, a bitmap scan and a sort of 20 rows tie with the range scan, and the
  // planner's pick turned on what other test files had written to the shared database.
  await db.$executeRawUnsafe(
    `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "sentBy", "createdAt")
     SELECT 'cmsg_' || substr($2, 6) || '_x' || k, $1, $2, 'inbound', 'text', 'contact',
       timestamp '2025-12-01' + k * interval '1 second'
     FROM generate_series(1, $3::int) AS k`,
    tag,
    busiest,
    BUSIEST_EXTRA,
  );
  await db.$executeRawUnsafe(`VACUUM ANALYZE "Conversation"`);
  await db.$executeRawUnsafe(`VACUUM ANALYZE "ConversationMessage"`);
}

afterAll(
  () => asBackgroundWork(() => db.$executeRawUnsafe(`DELETE FROM "Customer" WHERE "id" = $1`, me.customer.id)),
  600_000,
);

async function explain(sql: Prisma.Sql, seqscan = true): Promise<string> {
  // Other test files write conversations meanwhile: fresh statistics keep the plan about
  // the indexes, not about what autovacuum last saw.
  await asBackgroundWork(async () => {
    await db.$executeRawUnsafe(`ANALYZE "Conversation"`);
    await db.$executeRawUnsafe(`ANALYZE "ConversationMessage"`);
  });
  return db.$transaction(async (tx) => {
    if (!seqscan) await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const rows = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
    return rows.map((r) => Object.values(r).join(" ")).join("\n");
  });
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
      const filters = given.assigneeId === AGENT ? { ...given, assigneeId: agentId } : given;
      const senderId = bySender ? me.sender.id : undefined;
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
    for (const page of [1, 3]) {
      const { ids, page: full, count } = threadSql(me.customer.id, busiest, { page, limit: 5 });
      expectRangeScan(await explain(ids, FULL), "ConversationMessage");
      expect(await explain(full, FULL)).not.toMatch(/Seq Scan on "ConversationMessage"/);
      expect(await explain(count, false)).toMatch(
        /(Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)? (using|on) "ConversationMessage_conversationId_/,
      );
    }
  });
});
