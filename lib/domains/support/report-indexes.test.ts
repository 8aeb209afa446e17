// The support report reads its next responses and its resolutions from their indexes alone
// (prisma/schema.prisma: the figures ride in the range's index; docs/benchmarks.md "Support
// reports"): the statements supportReport runs plan as index-only scans of those indexes, for
// every grouping, label too (the rows' label set ids ride in the indexes: migration
// 20261203175827_support_label_sets), with and without the sender, member and label filters. A
// column such a statement comes to read that its index does not carry (the label ids, say) turns
// the plan into a plain index scan, a table page per row: this test fails.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { type ReportParts, supportReport } from "./report";
import type { SupportReportInput } from "./schemas";

/** The two families read from their indexes alone: a mark of their statement's text, the table, its index. */
const READS = [
  {
    family: "next responses",
    mark: 'FROM "SupportResponse" t',
    relation: "SupportResponse",
    index: "SupportResponse_customerId_respondedAt_figures_idx",
  },
  {
    family: "resolutions",
    mark: 't."resolvedAt" >=',
    relation: "SupportPeriod",
    index: "SupportPeriod_customerId_resolvedAt_figures_idx",
  },
] as const;

type Scan = { type: string; relation: string | undefined; index: string | undefined };
type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

/** Every node of a plan that reads a relation. */
function scansOf(node: PlanNode): Scan[] {
  const own = node["Relation Name"]
    ? [{ type: node["Node Type"], relation: node["Relation Name"], index: node["Index Name"] }]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}

/**
 * The statements' plans with sequential and bitmap scans priced out (the test's tables are small, where
 * reading the whole table is cheapest): what remains is the index plan, index-only where the index
 * carries every column read. One transaction for them all, each EXPLAIN in turn: on PGlite a
 * transaction has the database to itself, and waits for other files' (hence the long waits allowed).
 */
async function scansOfStatements(statements: Prisma.Sql[]): Promise<Scan[]> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      await tx.$executeRawUnsafe("SET LOCAL enable_bitmapscan = off");
      const scans: Scan[] = [];
      for (const sql of statements) {
        const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(
          `EXPLAIN (FORMAT JSON) ${sql.text}`,
          ...sql.values,
        );
        const plan = rows[0]?.["QUERY PLAN"][0]?.Plan;
        if (!plan) throw new Error("no plan");
        scans.push(...scansOf(plan));
      }
      return scans;
    },
    { maxWait: 60_000, timeout: 60_000 },
  );
}

let p: ReturnType<typeof memberPrincipal>;
const labelName = `idx-${randomBytes(3).toString("hex")}`;
let sender: Awaited<ReturnType<typeof messagingCustomer>>["sender"];

beforeAll(async () => {
  const t = await messagingCustomer();
  p = memberPrincipal(t.customer.id);
  sender = t.sender;
  // Closed periods and their next responses. The plan's kind does not depend on them: a statement
  // whose columns an index carries is planned as an index-only scan of it whatever the visibility
  // map says (it prices the table pages it may still read), one whose columns it does not carry never is.
  const conversationId = `conv_${randomBytes(8).toString("hex")}`;
  await db.conversation.create({
    data: {
      id: conversationId,
      customerId: t.customer.id,
      senderId: sender.id,
      contactPhoneNumber: uniquePhone(),
      lastMessageAt: new Date(),
    },
  });
  // Labelled before its periods, which take its label set as they are written.
  const labelId = `lbl_${randomBytes(10).toString("hex")}`;
  await db.label.create({
    data: { id: labelId, customerId: t.customer.id, name: labelName, nameKey: labelName, color: "blue" },
  });
  await db.conversationLabel.create({ data: { conversationId, labelId, customerId: t.customer.id } });
  await db.$executeRawUnsafe(
    `INSERT INTO "SupportPeriod" ("id", "customerId", "senderId", "conversationId", "startedAt", "resolvedAt",
       "resolutionSeconds", "closedBy", "inboundCount", "replyCount")
     SELECT 'sp_idx_' || $4 || i, $1, $2, $3, now() - i * interval '1 hour', now() - i * interval '1 hour' + interval '10 minutes',
       600, 'agent@example.test', 2, 2
     FROM generate_series(1, 200) i`,
    t.customer.id,
    sender.id,
    conversationId,
    randomBytes(4).toString("hex"),
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "SupportResponse" ("id", "customerId", "senderId", "periodId", "first", "waitedFrom", "respondedAt",
       "seconds", "responder")
     SELECT 'sr_' || sp."id", sp."customerId", sp."senderId", sp."id", false, sp."startedAt" + interval '1 minute',
       sp."startedAt" + interval '2 minutes', 60, 'agent@example.test'
     FROM "SupportPeriod" sp WHERE sp."conversationId" = $1`,
    conversationId,
  );
});

/** The statements one report runs, captured as it runs them. */
async function statementsOf(q: SupportReportInput, bySender: boolean, parts: ReportParts): Promise<Prisma.Sql[]> {
  const ran: Prisma.Sql[] = [];
  await supportReport(p, bySender ? sender : undefined, q, parts, (sql) => {
    ran.push(sql);
    return db.$queryRaw(sql);
  });
  return ran;
}

const GROUPINGS = ["day", "week", "member", "sender", "label"] as const;
const FILTERS: { name: string; bySender: boolean; memberId?: string; label?: boolean }[] = [
  { name: "no filter", bySender: false },
  { name: "one sender", bySender: true },
  { name: "one member", bySender: false, memberId: "api" },
  { name: "one label", bySender: false, label: true },
];

const PARTS: ReportParts[] = ["both", "groups", "totals"];

describe("the next responses and the resolutions are read from their indexes alone", () => {
  for (const groupBy of GROUPINGS) {
    for (const filter of FILTERS) {
      it(`by ${groupBy}, ${filter.name}, every part`, async () => {
        const q: SupportReportInput = {
          groupBy,
          ...(filter.memberId ? { memberId: filter.memberId } : {}),
          ...(filter.label ? { label: labelName } : {}),
        };
        for (const parts of PARTS) {
          const statements = await statementsOf(q, filter.bySender, parts);
          for (const read of READS) {
            const own = statements.filter((sql) => sql.text.includes(read.mark));
            expect(own, `one statement of the ${read.family} (${parts})`).toHaveLength(1);
            const scans = (await scansOfStatements(own)).filter((scan) => scan.relation === read.relation);
            expect(scans.length, `the ${read.family} read ${read.relation} (${parts})`).toBeGreaterThan(0);
            for (const scan of scans) {
              expect(scan, `the ${read.family} by ${groupBy}, ${filter.name} (${parts})`).toEqual({
                type: "Index Only Scan",
                relation: read.relation,
                index: read.index,
              });
            }
          }
        }
      });
    }
  }
});
