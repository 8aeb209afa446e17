// Self-serve senders (docs/messaging.md "Senders"): simulator mode assigns a phone number id at once;
// with a real provider the id is checked against the provider (a stubbed Graph API here).
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { createCustomer } from "@/lib/domains/customers/service";
import { setProvider } from "@/lib/domains/provider/client";
import { createTemplate, listTemplates } from "@/lib/domains/templates/service";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { providerKnows } from "@/test/provider-stub";
import { connectSender, makeDefaultSender } from "./connect-sender";

const principal = (customerId: string): Principal => memberPrincipal(customerId);

afterEach(() => {
  delete process.env.PROVIDER_MODE;
  resetEnvCache();
  setProvider(undefined);
});

describe("connectSender", () => {
  it("in simulator mode gives any E.164 number a simulated phone number id at once; the first is the default", async () => {
    const c = await createCustomer({ name: "Self serve" });
    const first = await connectSender(principal(c.id), { phoneNumber: uniquePhone() });
    expect(first.phoneNumberId).toMatch(/^9\d{14}$/);
    expect(first.isDefault).toBe(true);
    const second = await connectSender(principal(c.id), { phoneNumber: uniquePhone() });
    expect(second.isDefault).toBe(false);
    await makeDefaultSender(principal(c.id), second.phoneNumber);
    const defaults = await db.sender.findMany({ where: { customerId: c.id, isDefault: true } });
    expect(defaults.map((s) => s.id)).toEqual([second.id]);
    await expect(connectSender(principal(c.id), { phoneNumber: "12" })).rejects.toThrow(/international number/);
    await expect(connectSender(principal(c.id), { phoneNumber: first.phoneNumber })).rejects.toThrow(
      /already connected/,
    );
  });

  it("with a provider, requires the phone number id and checks it belongs to that number", async () => {
    const c = await createCustomer({ name: "Provider mode" });
    const phone = uniquePhone();
    const id = `7${Date.now()}`;
    const asked = providerKnows(id, phone.slice(1));
    const p = principal(c.id);
    await expect(connectSender(p, { phoneNumber: phone })).rejects.toThrow(/is required/);
    await expect(connectSender(p, { phoneNumber: phone, phoneNumberId: "000111" })).rejects.toThrow(/not known/);
    await expect(connectSender(p, { phoneNumber: uniquePhone(), phoneNumberId: id })).rejects.toThrow(/another number/);
    expect(await db.sender.count({ where: { customerId: c.id } })).toBe(0);
    const made = await connectSender(p, { phoneNumber: phone, phoneNumberId: id });
    expect(made).toMatchObject({ phoneNumber: phone, phoneNumberId: id, isDefault: true });
    expect(asked.at(-1)).toBe(`https://graph.example.test/v21.0/${id}?fields=display_phone_number`);
  });

  it("in simulator mode puts the customer's senders on one business account with the provider's approved sample template", async () => {
    const a = await createCustomer({ name: "Sample A" });
    const b = await createCustomer({ name: "Sample B" });
    const first = await connectSender(principal(a.id), { phoneNumber: uniquePhone() });
    const second = await connectSender(principal(a.id), { phoneNumber: uniquePhone() });
    const other = await connectSender(principal(b.id), { phoneNumber: uniquePhone() });
    expect(first.wabaId).toMatch(/^8\d{14}$/);
    expect(second.wabaId).toBe(first.wabaId);
    expect(other.wabaId).not.toBe(first.wabaId);
    // Each account sees its own hello_world, approved, and nothing of the other's.
    for (const [customer, waba] of [
      [a, first.wabaId],
      [b, other.wabaId],
    ] as const) {
      const { templates } = await listTemplates(principal(customer.id), { page: 1, limit: 100 }, "v3");
      expect(templates.map((t) => [t.name, t.language, t.status, t.wabaId])).toEqual([
        ["hello_world", "en_US", "APPROVED", waba],
      ]);
    }
  });

  it("in simulator mode a template the account creates is approved through the signed template status callback", async () => {
    const c = await createCustomer({ name: "Review" });
    const p = principal(c.id);
    const sender = await connectSender(p, { phoneNumber: uniquePhone() });
    const created = await createTemplate(p, sender, {
      name: "first_notice",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Your order {{1}} is ready", example: { body_text: [["A-1"]] } }],
    });
    expect(created.status).toBe("PENDING");
    await expect
      .poll(
        async () => {
          await processPendingCallbacks(200);
          return (await db.template.findUniqueOrThrow({ where: { id: created.id } })).status;
        },
        { timeout: 10_000 },
      )
      .toBe("APPROVED");
  });
});
