// Writes the demo's billing records and the matching ledger in bulk (set-based SQL, so
// 50,000 records take seconds on embedded PGlite). Idempotent: records are keyed by
// messageId, ledger rows by idempotencyKey; a second run inserts nothing.
import { db } from "@/lib/db";
import { type BillingRow, billingRows, type DemoSender } from "./billing-rows";

const CHUNK = 5_000;

const INSERT_RECORDS = `
INSERT INTO "BillingRecord" ("id", "customerId", "senderId", "phoneNumberId", "senderPhoneNumber", "messageId",
  "recipientId", "status", "billable", "billingClass", "pricingModel", "pricingCategory", "templateType",
  "pricingType", "rate", "currency", "conversationId", "conversationOriginType", "errorCode", "errorTitle",
  "messageTimestamp", "sentAt", "deliveredAt", "readAt", "failedAt", "createdAt", "updatedAt")
SELECT x.i, s."customerId", s.id, COALESCE(s."phoneNumberId", ''), s."phoneNumber", x.m,
  x.r, x.st, x.b, x.c, 'PMP', x.pc, x.tt,
  x.pt, x.rt::numeric, c.currency, x.cv, x.co, x.ec, x.et,
  x.t::timestamp(3), x.sa::timestamp(3), x.da::timestamp(3), x.ra::timestamp(3), x.fa::timestamp(3),
  x.t::timestamp(3), x.u::timestamp(3)
FROM json_to_recordset($1::json) AS x(i text, s text, m text, r text, st text, b boolean, c text, pc text, tt text,
  pt text, rt text, cv text, co text, ec int, et text, t text, sa text, da text, ra text, fa text, u text)
JOIN "Sender" s ON s.id = x.s AND s."customerId" = $2
JOIN "Customer" c ON c.id = s."customerId"
ON CONFLICT ("messageId") DO NOTHING`;

// One debit per payable record, amount = its rate, dated when it became payable.
const INSERT_DEBITS = `
INSERT INTO "BillingTransaction" ("id", "customerId", "senderId", "billingRecordId", "idempotencyKey", "type",
  "amount", "currency", "description", "templateType", "billingClass", "pricingCategory", "createdAt")
SELECT 'txn_demo_' || substr(md5(r.id), 1, 20), r."customerId", r."senderId", r.id, 'debit:' || r.id, 'debit',
  r.rate, r.currency, 'Message ' || r."messageId", r."templateType", r."billingClass", r."pricingCategory",
  COALESCE(r."deliveredAt", r."sentAt", r."createdAt")
FROM "BillingRecord" r
WHERE r."customerId" = $1 AND r."billingClass" = 'payable' AND r."messageId" LIKE 'wamid.demo.%'
ON CONFLICT ("idempotencyKey") DO NOTHING`;

export async function insertBillingRecords(options: {
  customerId: string;
  senders: DemoSender[];
  total: number;
  now: Date;
}): Promise<number> {
  const { customerId, senders, total, now } = options;
  const existing = await db.billingRecord.count({ where: { customerId, messageId: { startsWith: "wamid.demo." } } });
  if (existing >= total) return 0;
  const rateRows = await db.rateCard.findMany({ where: { scope: { in: ["global", customerId] } } });
  const rates = new Map<string, string>();
  for (const row of rateRows.filter((r) => r.scope === "global")) rates.set(row.pricingCategory, row.rate.toString());
  for (const row of rateRows.filter((r) => r.scope === customerId)) rates.set(row.pricingCategory, row.rate.toString());

  let inserted = 0;
  let chunk: BillingRow[] = [];
  const flush = async () => {
    if (!chunk.length) return;
    inserted += await db.$executeRawUnsafe(INSERT_RECORDS, JSON.stringify(chunk), customerId);
    chunk = [];
  };
  for (const row of billingRows({ total, now, senders, rates })) {
    chunk.push(row);
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  return inserted;
}

type MonthTotal = { month: string; debits: string };

/** The credit the demo account has for new sends beyond what the seeded history spent. */
export const DEMO_HEADROOM_CREDIT = 500;

/** Debits for payable records, a top-up at the start of each month, one refund and one adjustment. */
export async function insertLedger(customerId: string, now: Date): Promise<void> {
  await db.$executeRawUnsafe(INSERT_DEBITS, customerId);
  const months = await db.$queryRawUnsafe<MonthTotal[]>(
    `SELECT to_char(date_trunc('month', "createdAt"), 'YYYY-MM') AS month, SUM(amount)::text AS debits
       FROM "BillingTransaction" WHERE "customerId" = $1 AND type = 'debit'
      GROUP BY 1 ORDER BY 1`,
    customerId,
  );
  const first = await db.billingRecord.findFirst({
    where: { customerId, messageId: { startsWith: "wamid.demo." } },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  const start = first?.createdAt ?? now;
  const ledger = months.map(({ month, debits }, index) => {
    // Each top-up covers the month ahead with headroom, so the balance stays positive.
    const amount = Math.max(100, Math.ceil((Number(debits) * 1.25) / 50) * 50) + (index === 0 ? 200 : 0);
    const monthStart = new Date(`${month}-01T00:00:00.000Z`);
    const at = new Date(Math.max(monthStart.getTime(), start.getTime() - 3_600_000));
    return {
      customerId,
      idempotencyKey: `demo:topup:${month}`,
      type: "credit" as const,
      amount: amount.toFixed(2),
      description: index === 0 ? "Opening balance top-up (card)" : `Monthly top-up ${month} (card)`,
      createdAt: at,
    };
  });
  const refunded = await db.billingRecord.findFirst({
    where: {
      customerId,
      billingClass: "payable",
      messageId: { startsWith: "wamid.demo." },
      pricingCategory: "marketing",
    },
    orderBy: { createdAt: "asc" },
  });
  const extras = [
    ...(refunded
      ? [
          {
            customerId,
            senderId: refunded.senderId,
            billingRecordId: refunded.id,
            idempotencyKey: "demo:refund:1",
            type: "refund" as const,
            amount: refunded.rate.toString(),
            description: `Refund for ${refunded.messageId} (duplicate delivery)`,
            templateType: refunded.templateType,
            billingClass: refunded.billingClass,
            pricingCategory: refunded.pricingCategory,
            createdAt: new Date(refunded.createdAt.getTime() + 2 * 86_400_000),
          },
        ]
      : []),
    // Headroom for sending now (a broadcast to the demo books, docs/api/billing.md "Credit"):
    // the monthly top-ups only cover what the demo already spent.
    {
      customerId,
      idempotencyKey: "demo:topup:headroom",
      type: "credit" as const,
      amount: DEMO_HEADROOM_CREDIT.toFixed(2),
      description: "Top-up for this month's campaigns (card)",
      createdAt: new Date(now.getTime() - 86_400_000),
    },
    {
      customerId,
      idempotencyKey: "demo:adjustment:1",
      type: "adjustment" as const,
      amount: "10.00",
      description: "Goodwill credit after the provider incident",
      createdAt: new Date(Math.max(start.getTime(), now.getTime() - 30 * 86_400_000)),
    },
  ];
  await db.billingTransaction.createMany({ data: [...ledger, ...extras], skipDuplicates: true });
}
