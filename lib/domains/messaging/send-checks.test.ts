// The checks stage of the send pipeline on a real database (docs/messaging.md "The send
// pipeline"): a batch gets one verdict per send, in order, with the single send's answers, and
// costs the same statements whatever its size (one round trip per check, not per message).
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { addToBlacklist } from "@/lib/domains/contacts/blacklist";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import type { OutgoingMessage } from "./outgoing";
import { templatePayload } from "./payloads";
import { checkSends } from "./send-checks";

// Counts the statements that reach pg inside one checkSends call (Prisma and hotRows alike).
const counting = new AsyncLocalStorage<{ statements: number }>();
const originalQuery = pg.Client.prototype.query;
beforeAll(() => {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this counts and passes through.
  (pg.Client.prototype as any).query = function count(this: pg.Client, ...args: any[]) {
    const store = counting.getStore();
    if (store) store.statements += 1;
    // biome-ignore lint/suspicious/noExplicitAny: see above
    return (originalQuery as any).apply(this, args);
  };
});
afterAll(() => {
  pg.Client.prototype.query = originalQuery;
});

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
const templateSend = (to: string, name = "order_update"): OutgoingMessage => ({
  sendRoute: "send",
  recipient: to,
  // order_update's body takes one value (test/messaging-fixtures.ts): a send without it is refused.
  payload: templatePayload({ to, template: { name, language: "en", components: HELLO_PARAMS } }),
  template: { name, language: "en" },
});
const textSend = (to: string): OutgoingMessage => ({
  sendRoute: "chat",
  recipient: to,
  payload: { messaging_product: "whatsapp", to: to.slice(1), type: "text", text: { body: "hi" } },
});

describe("checkSends", () => {
  let t: Customer;
  let p: Principal;
  let blocked: string;
  let engaged: string;

  beforeAll(async () => {
    t = await messagingCustomer();
    p = systemPrincipal(t.customer.id);
    blocked = recipient();
    await addToBlacklist(t.customer.id, t.sender.id, blocked);
    engaged = await engagedRecipient(t.sender);
  });

  /** One of each answer; `fresh` recipients for the sends that pass. */
  const mixed = () => [
    templateSend(recipient()),
    templateSend(blocked),
    textSend(recipient()),
    textSend(engaged),
    templateSend(recipient(), "no_such_template"),
  ];

  it("answers each send of a batch as it would answer it alone, in order", async () => {
    const outs = mixed();
    const verdicts = await checkSends(p, t.sender, outs);
    const alone = await Promise.all(outs.map(async (out) => (await checkSends(p, t.sender, [out]))[0]));
    const codes = (vs: typeof verdicts) => vs.map((v) => (v?.ok ? "ok" : v?.refusal.code));
    expect(codes(verdicts)).toEqual([
      "ok",
      "RECIPIENT_BLACKLISTED",
      "CUSTOMER_SERVICE_WINDOW_CLOSED",
      "ok",
      "TEMPLATE_NOT_FOUND",
    ]);
    expect(codes(alone)).toEqual(codes(verdicts));
    const first = verdicts[0];
    expect(first?.ok && first.send).toMatchObject({ pricingCategory: "utility", template: { name: "order_update" } });
    const text = verdicts[3];
    expect(text?.ok && text.send).toMatchObject({ pricingCategory: "service", template: null });
  });

  it("a refusal for a whole batch: the sender is disconnected", async () => {
    const verdicts = await checkSends(p, { ...t.sender, connectionStatus: "DISCONNECTED" }, mixed());
    expect(verdicts.map((v) => !v.ok && v.refusal.code)).toEqual(Array(5).fill("SENDER_DISCONNECTED"));
  });

  it("costs the same statements for 50 sends as for 5", async () => {
    const statementsFor = async (outs: OutgoingMessage[]) => {
      const store = { statements: 0 };
      const verdicts = await counting.run(store, () => checkSends(p, t.sender, outs));
      expect(verdicts).toHaveLength(outs.length);
      return store.statements;
    };
    await statementsFor(mixed()); // warms the per-process caches (template, balance, rate)
    const five = await statementsFor(mixed());
    const fifty = await statementsFor(Array.from({ length: 10 }, mixed).flat());
    expect(five).toBeGreaterThan(0);
    // Equal, but for a per-process cache (balance, found template, rate: at most one read
    // each) that expired between the two calls on a loaded machine; per-message reads would
    // add 45 or more.
    expect(Math.abs(fifty - five)).toBeLessThanOrEqual(3);
  });
});
