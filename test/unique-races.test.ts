// Concurrent duplicate creates: the unique constraint decides the race, and
// the losers get the contract's 409 code (lib/db/unique-conflict.ts), never a 500.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call } from "./factory";
import { messagingCustomer, recipient } from "./messaging-fixtures";

const RACERS = 12;

const order = (reference: string) => ({
  currency: "usd",
  reference,
  items: [{ name: "Mug", quantity: 1, amount: 8 }],
});

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => Object.assign(acc, { [s]: (acc[s] ?? 0) + 1 }), {});

describe("unique-constraint races answer their 409 code", () => {
  it(`${RACERS} concurrent orders/send with one reference: 1 success, ${RACERS - 1} x ORDER_REFERENCE_EXISTS`, async () => {
    const t = await messagingCustomer();
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () =>
        call("POST", "/api/v3/orders/send", {
          token: t.globalToken,
          body: { to: recipient(), order: order("RACE-1") },
        }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 409: RACERS - 1 });
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body).toMatchObject({ success: false, error_code: "ORDER_REFERENCE_EXISTS" });
    }
    expect(await db.order.count({ where: { customerId: t.customer.id, reference: "RACE-1" } })).toBe(1);
  });

  it(`${RACERS} concurrent template creates with one name and language: 1 success, ${RACERS - 1} x TEMPLATE_ALREADY_EXISTS`, async () => {
    const t = await messagingCustomer();
    const template = {
      name: "race_notice",
      language: "en_US",
      category: "utility",
      components: [{ type: "BODY", text: "Shipped {{1}}" }],
    };
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () =>
        call("POST", "/api/v3/templates", { token: t.globalToken, body: { template } }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: RACERS - 1 });
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body).toMatchObject({ success: false, error_code: "TEMPLATE_ALREADY_EXISTS" });
    }
    expect(await db.template.count({ where: { customerId: t.customer.id, name: "race_notice" } })).toBe(1);
  });
});
