// The low-balance alert (docs/api/billing.md "Low balance"): debits from real provider
// callbacks take the balance below the account's threshold and billing.balance.low is raised
// once for that crossing, with a body that fits the catalog's schema; a credit back above
// re-arms it; a threshold of null never alerts; another customer hears nothing. The check
// after a batch runs only when the batch debited, and reads each balance once.
import { randomBytes } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import { payloadDocs } from "@/lib/domains/webhooks/catalog";
import type { Sender } from "@/lib/generated/prisma/client";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { createDestination, postProvider, waitFor } from "@/test/events-helpers";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { graceFor } from "@/test/grace";
import { memberPrincipal } from "@/test/member-fixtures";
import { addCredit } from "./credits";
import { checkLowBalanceNow, lowBalanceState, setLowBalanceThreshold } from "./low-balance";
import { setRate } from "./rate-card";
import { LowBalanceThresholdInput } from "./schemas";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** A template this service sent, and the provider's signed "delivered" callback making it payable (marketing). */
async function payableSend(sender: Sender) {
  const wamid = `wamid.low.${randomBytes(8).toString("hex")}`;
  const to = uniquePhone();
  await db.message.create({
    data: {
      id: `msg_${randomBytes(12).toString("hex")}`,
      customerId: sender.customerId,
      senderId: sender.id,
      providerMessageId: wamid,
      recipient: to,
      type: "template",
      sendRoute: "send",
      payload: {},
    },
  });
  const raw = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: sender.phoneNumber.slice(1), phone_number_id: sender.phoneNumberId },
              statuses: [
                {
                  id: wamid,
                  status: "delivered",
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: to.slice(1),
                  pricing: { billable: true, pricing_model: "PMP", type: "regular", category: "marketing" },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  expect((await postProvider(raw, signProviderBody(raw))).status).toBe(200);
  await processPendingCallbacks(200);
  return raw;
}

/** The text of each statement sent to PostgreSQL (any pool, Prisma's or plain pg) while `run` runs. */
async function statementsOf(run: (texts: readonly string[]) => Promise<void>): Promise<string[]> {
  const query = pg.Client.prototype.query;
  const texts: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    texts.push(typeof first === "string" ? first : String((first as { text?: unknown } | undefined)?.text ?? ""));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run(texts);
    return texts;
  } finally {
    pg.Client.prototype.query = query;
  }
}

const balanceOf = async (customerId: string) => {
  const rows = await db.billingTransaction.findMany({ where: { customerId } });
  return rows.reduce((sum, r) => sum + (r.type === "debit" ? -1 : 1) * Number(r.amount), 0);
};

const alerts = (customerId: string) =>
  db.webhookEvent.findMany({ where: { customerId, type: "billing.balance.low" }, orderBy: { createdAt: "asc" } });

describe("billing.balance.low", () => {
  it("is raised once per crossing below the threshold and again after a credit back above", async () => {
    const t = await createTestCustomer();
    const quiet = await createTestCustomer();
    await setRate({ category: "marketing", rate: 4, customerId: t.customer.id });
    await setRate({ category: "marketing", rate: 4, customerId: quiet.customer.id });
    await db.customer.update({ where: { id: quiet.customer.id }, data: { lowBalanceThreshold: null } });
    const { destination } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: "https://hooks.example.com/low",
      events: ["billing.balance.low"],
    });
    await addCredit({ customerId: t.customer.id, amount: "10" });
    await addCredit({ customerId: quiet.customer.id, amount: "10" });

    await payableSend(t.sender); // 6: above the threshold of 5
    await waitFor(async () => (await balanceOf(t.customer.id)) === 6, 10_000, "the first debit");
    await payableSend(t.sender); // 2: crossed
    const [first] = await waitFor(async () => {
      const found = await alerts(t.customer.id);
      return found.length > 0 && found;
    });
    expect(first?.payload).toMatchObject({
      type: "billing.balance.low",
      senderId: t.sender.phoneNumber,
      data: { balance: 2, threshold: 5, currency: "USD" },
    });
    const validate = ajv.compile(payloadDocs()["billing.balance.low"]?.schema ?? {});
    expect(validate(first?.payload), ajv.errorsText(validate.errors)).toBe(true);
    const delivery = await db.webhookDelivery.findFirst({ where: { eventId: first?.id } });
    expect(delivery?.destinationId).toBe(destination.id);

    await payableSend(t.sender); // -2: still the same crossing
    await waitFor(async () => (await balanceOf(t.customer.id)) === -2, 10_000, "the third debit");
    // Checked again (as the ingest's delayed check will): nothing new for the same crossing.
    expect(await checkLowBalanceNow([t.customer.id])).toBe(0);
    await graceFor(600, "a second alert for the same crossing");
    expect(await alerts(t.customer.id)).toHaveLength(1);

    // A top-up back above re-arms: the next crossing alerts again.
    await addCredit({ customerId: t.customer.id, amount: "10" }); // 8
    expect((await db.customer.findUniqueOrThrow({ where: { id: t.customer.id } })).lowBalanceAlerted).toBe(false);
    await payableSend(t.sender); // 4: crossed again
    await waitFor(async () => (await alerts(t.customer.id)).length === 2, 10_000, "the second alert");

    // No threshold, no alert, whatever the balance.
    await payableSend(quiet.sender);
    await payableSend(quiet.sender);
    await payableSend(quiet.sender);
    await waitFor(async () => (await balanceOf(quiet.customer.id)) === -2, 10_000, "the quiet debits");
    expect(await checkLowBalanceNow([quiet.customer.id])).toBe(0);
    await graceFor(600, "an alert without a threshold");
    expect(await alerts(quiet.customer.id)).toHaveLength(0);
  });
});

describe("the check after a batch", () => {
  it("runs after a batch that debited, in one statement summing the ledger once, and not after one that debited nobody", async () => {
    const t = await createTestCustomer();
    await setRate({ category: "marketing", rate: 1, customerId: t.customer.id });
    await addCredit({ customerId: t.customer.id, amount: "100" });
    const checks = (texts: readonly string[]) => texts.filter((text) => text.includes('SET "lowBalanceAlerted"'));
    const sums = (texts: readonly string[]) => texts.join("\n").split('FROM "BillingTransaction"').length - 1;

    // A debit: the check runs once the batch committed, one statement reading the balance once.
    let raw = "";
    const debited = await statementsOf(async (sent) => {
      raw = await payableSend(t.sender);
      await waitFor(() => checks(sent).length > 0, 10_000, "the check after the debit");
      await graceFor(300, "a second statement of the check");
    });
    expect(await balanceOf(t.customer.id)).toBe(99);
    expect(checks(debited)).toHaveLength(1);
    expect(sums(checks(debited))).toBe(1);

    // The provider replays it: the batch debits nobody, and no check runs.
    const replayed = await statementsOf(async () => {
      expect((await postProvider(raw, signProviderBody(raw))).status).toBe(200);
      await processPendingCallbacks(200);
      await graceFor(300, "a check after a batch without debits");
    });
    expect(await balanceOf(t.customer.id)).toBe(99);
    expect(replayed.length).toBeGreaterThan(0);
    expect(checks(replayed)).toHaveLength(0);
  });
});

describe("the account's threshold", () => {
  it("raising it above the balance alerts at once and lights the banner; empty turns it off", async () => {
    const t = await createTestCustomer();
    const p = memberPrincipal(t.customer.id);
    await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: "https://hooks.example.com/low",
      events: ["billing.balance.low"],
    });
    await addCredit({ customerId: t.customer.id, amount: "20" });
    expect(await lowBalanceState(p)).toEqual({ balance: 20, threshold: 5, currency: "USD", low: false });

    await setLowBalanceThreshold(p, LowBalanceThresholdInput.parse({ threshold: "25.5" }).threshold);
    expect(await lowBalanceState(p)).toMatchObject({ threshold: 25.5, low: true });
    expect(await alerts(t.customer.id)).toHaveLength(1);

    await setLowBalanceThreshold(p, LowBalanceThresholdInput.parse({ threshold: "" }).threshold);
    expect(await lowBalanceState(p)).toMatchObject({ threshold: null, low: false });
    expect((await db.customer.findUniqueOrThrow({ where: { id: t.customer.id } })).lowBalanceAlerted).toBe(false);
    expect(LowBalanceThresholdInput.safeParse({ threshold: "-3" }).success).toBe(false);
    expect(LowBalanceThresholdInput.safeParse({ threshold: "lots" }).success).toBe(false);
  });
});
