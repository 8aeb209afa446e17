// The first-run checklist's progress comes from the account's own data, per tenant.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { createCustomer } from "@/lib/domains/customers/service";
import { addSender, setDefaultSender } from "@/lib/domains/senders/admin";
import { issueToken } from "@/lib/domains/tokens/service";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { HELLO_PARAMS, messagingCustomer } from "@/test/messaging-fixtures";
import { onboardingProgress } from "./progress";

const principal = (customerId: string): Principal => memberPrincipal(customerId);
const doneKeys = async (customerId: string) =>
  (await onboardingProgress(principal(customerId))).steps.filter((s) => s.done).map((s) => s.key);

describe("onboarding progress", () => {
  it("a new account has nothing done; each step is done by the account's own data", async () => {
    const fresh = await createCustomer({ name: "Fresh" });
    const start = await onboardingProgress(principal(fresh.id));
    expect(start).toMatchObject({ done: 0, total: 4, complete: false });
    expect(start.steps.map((s) => [s.key, s.href])).toEqual([
      ["sender", "/senders"],
      ["token", "/tokens"],
      ["message", "/messages"],
      ["webhook", "/webhooks"],
    ]);

    // A sender without a provider phone number id cannot send: not done yet.
    await addSender({ customerId: fresh.id, phoneNumber: uniquePhone() });
    expect(await doneKeys(fresh.id)).toEqual([]);
    await addSender({ customerId: fresh.id, phoneNumber: uniquePhone(), phoneNumberId: `9${Date.now()}` });
    expect(await doneKeys(fresh.id)).toEqual(["sender"]);
    await issueToken({ customerId: fresh.id, name: "first" });
    expect(await doneKeys(fresh.id)).toEqual(["sender", "token"]);
  });

  it("counts an accepted message and a webhook, and never another tenant's", async () => {
    const t = await messagingCustomer();
    const other = await createTestCustomer();
    expect(await doneKeys(t.customer.id)).toEqual(["sender", "token"]);
    const sent = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: uniquePhone(), template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    expect(sent.status).toBe(200);
    await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: { webhook: { name: "h", endpointUrl: "https://hooks.example.com/x", events: ["message.status.sent"] } },
    });
    expect(await onboardingProgress(principal(t.customer.id))).toMatchObject({ done: 4, complete: true });
    expect(await doneKeys(other.customer.id)).toEqual(["sender", "token"]);
  });
});

describe("setDefaultSender (sender:default)", () => {
  it("makes one sender the default and the others not; another customer's number is refused", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    const made = await setDefaultSender(t.customer.id, t.otherSender.phoneNumber);
    expect(made.isDefault).toBe(true);
    const defaults = await db.sender.findMany({ where: { customerId: t.customer.id, isDefault: true } });
    expect(defaults.map((s) => s.id)).toEqual([t.otherSender.id]);
    await expect(setDefaultSender(t.customer.id, other.sender.phoneNumber)).rejects.toThrow(/is not a sender/);
    expect((await db.sender.findUniqueOrThrow({ where: { id: other.sender.id } })).isDefault).toBe(true);
  });
});
