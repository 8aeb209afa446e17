// The data bench/broadcast.ts runs on: a customer with credit, a utility template with one
// body parameter ("Hello {{1}}", mapped from the contact's name), two senders (the default
// throughput of 80/s for the pacing scenario, 1,000/s and an unlimited messaging tier for the
// throughput scenario) and contact books made with INSERT ... SELECT generate_series.
import pg from "pg";

type SeededSender = { id: string; phoneNumber: string; phoneNumberId: string };
export type Seeded = { customerId: string; paced: SeededSender; fast: SeededSender };

const id = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`;

export async function seedCustomer(url: string, name: string, numberBase = 0): Promise<Seeded> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const customerId = id("cbench");
    await c.query(
      `INSERT INTO "Customer" (id, name, plan, "createdAt", "updatedAt") VALUES ($1, $2, 'pro', now(), now())`,
      [customerId, name],
    );
    const number = (i: number): SeededSender => ({
      id: id("sbench"),
      phoneNumber: `+1555030${String(numberBase + 1 + i).padStart(4, "0")}`,
      phoneNumberId: `1090000${String(numberBase + 3 + i).padStart(5, "0")}`,
    });
    const senders: Record<"paced" | "fast", SeededSender> = { paced: number(0), fast: number(1) };
    for (const [key, s] of Object.entries(senders)) {
      await c.query(
        `INSERT INTO "Sender" (id, "customerId", "phoneNumber", "phoneNumberId", "wabaId", "isDefault",
           "throughputPerSecond", "messagingLimit", "createdAt", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), now())`,
        [
          s.id,
          customerId,
          s.phoneNumber,
          s.phoneNumberId,
          `2090000${String(numberBase + 3).padStart(5, "0")}`,
          key === "paced",
          key === "paced" ? 80 : 1000,
          key === "paced" ? 1_000_000 : null,
        ],
      );
    }
    await c.query(
      `INSERT INTO "Template" (id, "customerId", name, language, category, status, source, "providerTemplateId", components, "createdAt", "updatedAt")
       VALUES ($1, $2, 'order_update', 'en', 'UTILITY', 'APPROVED', 'MANUAL', $3, $4::jsonb, now(), now())`,
      [
        id("tbench"),
        customerId,
        String(100000000000000 + Math.floor(Math.random() * 1e9)),
        JSON.stringify([{ type: "BODY", text: "Hello {{1}}" }]),
      ],
    );
    await c.query(
      `INSERT INTO "BillingTransaction" (id, "customerId", type, amount, description, "createdAt")
       VALUES ($1, $2, 'credit', 10000000, 'bench credit', now())`,
      [id("btbench"), customerId],
    );
    return { customerId, paced: senders.paced, fast: senders.fast };
  } finally {
    await c.end();
  }
}

/**
 * A contact book of `n` contacts, phone numbers +1 <prefix> <index, 7 digits> from `first`;
 * every sixth contact (index % 6 = 5) has tier "silver", the others "gold".
 */
export async function seedBook(url: string, customerId: string, prefix: string, first: number, n: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const bookId = id("bkbench");
    await c.query(
      `INSERT INTO "ContactBook" (id, "customerId", name, "createdAt", "updatedAt") VALUES ($1, $2, $3, now(), now())`,
      [bookId, customerId, `Bench ${prefix} ${first}`],
    );
    await c.query(
      `INSERT INTO "Contact" (id, "customerId", "contactBookId", "phoneNumber", name, "customFields", "createdAt", "updatedAt")
       SELECT 'ct' || md5($2 || g), $1, $2, '+1' || $3 || lpad(g::text, 7, '0'), 'Contact ' || g,
              jsonb_build_object('tier', CASE WHEN g % 6 = 5 THEN 'silver' ELSE 'gold' END), now(), now()
         FROM generate_series($4::int, $4::int + $5::int - 1) AS g`,
      [customerId, bookId, prefix, first, n],
    );
    await c.query(`ANALYZE "Contact"`);
    return bookId;
  } finally {
    await c.end();
  }
}
