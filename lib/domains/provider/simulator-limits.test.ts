// What the simulator enforces (docs/api/limits.md "What the simulator enforces"), each as the
// provider answers it: 130429 with a Retry-After past the number's throughput, 131056 for a
// second template to one user within 6 seconds, 131048 (a failed status) past the business
// account's messaging limit of unique contacts per rolling 24 hours, and 131049 (a failed
// status) for a share of marketing templates. The failed statuses are read where the service
// records them (the billing record of the message), through the real signed callbacks.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Sender } from "@/lib/generated/prisma/client";
import { drainCallbacks } from "@/test/conversation-fixtures";
import { sentMessages, waitFor } from "@/test/events-helpers";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { engagedRecipient } from "@/test/messaging-fixtures";
import { providerSender } from "../senders/provider-sender";
import { MARKETING_CAP, MESSAGING_LIMIT_HIT, PAIR_RATE_LIMIT, THROUGHPUT_EXCEEDED } from "./error-codes";
import { ProviderSimulator, type SimulatorOptions } from "./simulator";

const OPTIONS: SimulatorOptions = {
  throughputPerSecond: 80,
  statusDelayMs: 20,
  failureRate: 0,
  readRate: 0,
  replyRate: 0,
  messagingLimit: 10_000,
  marketingCapRate: 0,
};
const made: ProviderSimulator[] = [];
const simulator = (over: Partial<SimulatorOptions> = {}) => {
  const s = new ProviderSimulator({ ...OPTIONS, ...over });
  made.push(s);
  return s;
};
afterEach(() => {
  for (const s of made.splice(0)) s.limits.useClock();
});

const template = (to: string, name = "order_update") => ({
  messaging_product: "whatsapp" as const,
  to: to.slice(1),
  type: "template",
  template: { name, language: { code: "en" } },
});
const text = (to: string) => ({
  messaging_product: "whatsapp" as const,
  to: to.slice(1),
  type: "text",
  text: { body: "hi" },
});
const T0 = 1_800_000_000_000;

/** Sends from the sender, records the message as a send of ours, and waits for its recorded failure code (null: delivered). */
async function outcome(
  sim: ProviderSimulator,
  sender: Sender,
  payload: ReturnType<typeof template>,
  category = "utility",
) {
  const result = await sim.sendMessage(providerSender(sender), payload, { pricingCategory: category });
  if (!result.ok) throw new Error(`refused at once: ${result.code}`);
  await sentMessages(sender, "", new Map([[result.messageId, `+${payload.to}`]]));
  const record = await waitFor(
    async () => {
      await drainCallbacks();
      const r = await db.billingRecord.findUnique({ where: { messageId: result.messageId } });
      return r && (r.status === "failed" || r.status === "delivered") ? r : null;
    },
    15_000,
    "the message's final status",
  );
  return record.status === "failed" ? record.errorCode : null;
}

describe("simulator: throughput (130429)", () => {
  it("refuses past the number's messages in any 1,000 ms with a Retry-After, and takes them again once the oldest left", async () => {
    const sim = simulator({ throughputPerSecond: 3 });
    let now = T0 + 400;
    sim.limits.useClock(() => now);
    const sender = { phoneNumberId: "5550001", phoneNumber: "+15550001", wabaId: "w1" };
    for (let i = 0; i < 3; i++) expect((await sim.sendMessage(sender, text(uniquePhone()))).ok).toBe(true);
    const refused = await sim.sendMessage(sender, text(uniquePhone()));
    expect(refused).toMatchObject({ ok: false, code: THROUGHPUT_EXCEEDED, retryable: true, retryAfterSeconds: 1 });
    // Another number has its own throughput.
    expect((await sim.sendMessage({ ...sender, phoneNumberId: "5550002" }, text(uniquePhone()))).ok).toBe(true);
    // A new clock second is no new allowance: the three are still within the last 1,000 ms.
    now = T0 + 1000;
    expect(await sim.sendMessage(sender, text(uniquePhone()))).toMatchObject({ code: THROUGHPUT_EXCEEDED });
    now = T0 + 1400;
    expect((await sim.sendMessage(sender, text(uniquePhone()))).ok).toBe(true);
  });

  it("refuses a sender that puts two seconds' messages into one sliding second", async () => {
    // 80/s in every clock second, but 80 late in one and 80 early in the next: 160 within
    // 1,000 ms, which a provider counting a sliding window refuses.
    const sim = simulator({ throughputPerSecond: 80 });
    let now = T0;
    sim.limits.useClock(() => now);
    const sender = { phoneNumberId: "5550005", phoneNumber: "+15550005", wabaId: "w1" };
    const outcomes: boolean[] = [];
    for (let i = 0; i < 160; i++) {
      now = T0 + 900 + i; // 80 in 900-979 ms of one second, 80 in 980-1,059 ms
      outcomes.push((await sim.sendMessage(sender, text(uniquePhone()))).ok);
    }
    expect(outcomes.slice(0, 80).every(Boolean)).toBe(true);
    expect(outcomes.slice(80).filter((ok) => !ok)).toHaveLength(80);
    // Evenly paced at its throughput, the same number is never refused.
    const paced = { ...sender, phoneNumberId: "5550006" };
    for (let i = 0; i < 240; i++) {
      now = T0 + 10_000 + i * 12.5;
      expect((await sim.sendMessage(paced, text(uniquePhone()))).ok).toBe(true);
    }
  });

  it("follows a number the operator upgraded (the sender's throughputPerSecond), never below its default", async () => {
    const sim = simulator({ throughputPerSecond: 2 });
    const now = T0;
    sim.limits.useClock(() => now);
    const upgraded = { phoneNumberId: "5550003", phoneNumber: "+15550003", wabaId: "w1", throughputPerSecond: 5 };
    for (let i = 0; i < 5; i++) expect((await sim.sendMessage(upgraded, text(uniquePhone()))).ok).toBe(true);
    expect(await sim.sendMessage(upgraded, text(uniquePhone()))).toMatchObject({ code: THROUGHPUT_EXCEEDED });
    const lower = { ...upgraded, phoneNumberId: "5550004", throughputPerSecond: 1 };
    for (let i = 0; i < 2; i++) expect((await sim.sendMessage(lower, text(uniquePhone()))).ok).toBe(true);
  });
});

describe("simulator: pair rate (131056)", () => {
  it("refuses a second marketing template to one user within 6 seconds, not to another user, and again after 6 seconds", async () => {
    const t = await createTestCustomer();
    const sim = simulator();
    let now = T0;
    sim.limits.useClock(() => now);
    const sender = providerSender(t.sender);
    const marketing = { pricingCategory: "marketing" };
    const user = uniquePhone();
    expect((await sim.sendMessage(sender, template(user, "spring_sale"), marketing)).ok).toBe(true);
    now += 5_900;
    expect(await sim.sendMessage(sender, template(user, "spring_sale"), marketing)).toMatchObject({
      ok: false,
      code: PAIR_RATE_LIMIT,
      retryable: true,
    });
    // A utility template in the conversation is inside the burst allowance; another user is another pair.
    expect((await sim.sendMessage(sender, template(user), { pricingCategory: "utility" })).ok).toBe(true);
    expect((await sim.sendMessage(sender, template(uniquePhone(), "spring_sale"), marketing)).ok).toBe(true);
    now += 200;
    expect((await sim.sendMessage(sender, template(user, "spring_sale"), marketing)).ok).toBe(true);
  });

  it("allows a burst of 45 messages to one user within 6 seconds, then refuses", async () => {
    const sim = simulator({ throughputPerSecond: 1000 });
    const now = T0;
    sim.limits.useClock(() => now);
    const sender = { phoneNumberId: "5550005", phoneNumber: "+15550005", wabaId: "w2", messagingLimit: null };
    const user = uniquePhone();
    for (let i = 0; i < 45; i++)
      expect((await sim.sendMessage(sender, template(user), { pricingCategory: "utility" })).ok).toBe(true);
    expect(await sim.sendMessage(sender, template(user), { pricingCategory: "utility" })).toMatchObject({
      code: PAIR_RATE_LIMIT,
    });
  });
});

describe("simulator: messaging limit (131048)", () => {
  it("fails the contact past the account's tier, shared by its numbers; counted and engaged contacts cost nothing; a day later it takes more", async () => {
    const t = await createTestCustomer();
    await db.sender.update({ where: { id: t.otherSender.id }, data: { wabaId: t.sender.wabaId } });
    const senders = await db.sender.findMany({
      where: { customerId: t.customer.id, wabaId: t.sender.wabaId },
      orderBy: { id: "asc" },
    });
    const [a, b] = senders.map((s) => ({ ...s, messagingLimit: 2 }));
    if (!a || !b) throw new Error("two senders expected");
    const sim = simulator();
    let now = Date.now();
    sim.limits.useClock(() => now);
    const [first, second, third] = [uniquePhone(), uniquePhone(), uniquePhone()];
    expect(await outcome(sim, a, template(first as string))).toBeNull();
    expect(await outcome(sim, b, template(second as string))).toBeNull(); // the account's other number: 2 of 2
    const engaged = await engagedRecipient(a);
    expect(await outcome(sim, a, template(engaged))).toBeNull(); // open window: not counted
    now += 7_000;
    expect(await outcome(sim, a, template(first as string))).toBeNull(); // already counted
    expect(await outcome(sim, a, template(third as string))).toBe(MESSAGING_LIMIT_HIT);
    // The first two leave the rolling 24 hours: room again.
    now += 24 * 3600_000;
    expect(await outcome(sim, b, template(third as string))).toBeNull();
  });

  it("takes no count for an unlimited account and defaults to SIMULATOR_MESSAGING_LIMIT for a sender without a tier", async () => {
    const t = await createTestCustomer();
    const unlimited = simulator();
    for (let i = 0; i < 3; i++) {
      const ok = await unlimited.sendMessage(
        { ...providerSender(t.sender), messagingLimit: null },
        template(uniquePhone()),
      );
      expect(ok.ok).toBe(true);
    }
    const sim = simulator({ messagingLimit: 1 });
    const bare = {
      phoneNumberId: t.sender.phoneNumberId ?? "",
      phoneNumber: t.sender.phoneNumber,
      wabaId: t.sender.wabaId,
    };
    expect(sim.messagingLimitOf(bare)).toBe(1);
    expect(sim.messagingLimitOf({ ...bare, messagingLimit: null })).toBeNull();
    expect(await outcome(sim, { ...t.sender, messagingLimit: 1 }, template(uniquePhone()))).toBeNull();
    expect(await outcome(sim, { ...t.sender, messagingLimit: 1 }, template(uniquePhone()))).toBe(MESSAGING_LIMIT_HIT);
  });
});

describe("simulator: marketing frequency cap (131049)", () => {
  it("fails the configured share of marketing templates, never utility ones", async () => {
    const t = await createTestCustomer();
    const always = simulator({ marketingCapRate: 1 });
    expect(await outcome(always, t.sender, template(uniquePhone(), "spring_sale"), "marketing")).toBe(MARKETING_CAP);
    expect(await outcome(always, t.sender, template(uniquePhone()), "utility")).toBeNull();
    const never = simulator({ marketingCapRate: 0 });
    expect(await outcome(never, t.sender, template(uniquePhone(), "spring_sale"), "marketing")).toBeNull();
  });
});
