// The simulator refuses template parameters that do not fit, as the provider does (132000,
// 132012), whether it knows the template from the account's templates or created it itself.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestCustomer } from "@/test/factory";
import { addTemplate } from "@/test/messaging-fixtures";
import { ProviderSimulator } from "./simulator";

const simulator = () =>
  new ProviderSimulator({
    throughputPerSecond: 1000,
    statusDelayMs: 600_000,
    failureRate: 0,
    readRate: 0,
    replyRate: 0,
    messagingLimit: 10_000,
    marketingCapRate: 0,
  });
const templatePayload = (name: string, components?: unknown[]) => ({
  messaging_product: "whatsapp" as const,
  to: "14155550177",
  type: "template",
  template: { name, language: { code: "en" }, ...(components ? { components } : {}) },
});
const body = (...texts: string[]) => ({ type: "body", parameters: texts.map((text) => ({ type: "text", text })) });

describe("simulator: template parameters", () => {
  it("refuses a send of the account's template without its parameters with 132000", async () => {
    const t = await createTestCustomer();
    const template = await addTemplate(t.customer.id, { name: "order_update" });
    await db.template.update({
      where: { id: template.id },
      data: { components: [{ type: "BODY", text: "Hi {{1}}, your order {{2}} is on its way." }] },
    });
    const sender = {
      phoneNumberId: t.sender.phoneNumberId ?? "",
      phoneNumber: t.sender.phoneNumber,
      wabaId: t.sender.wabaId,
    };
    const sim = simulator();
    const refused = await sim.sendMessage(sender, templatePayload("order_update"));
    expect(refused).toMatchObject({ ok: false, code: 132000, retryable: false, ambiguous: false, httpStatus: 400 });
    expect(refused.ok ? "" : refused.message).toBe(
      "Number of parameters does not match the expected number of params: body parameter 1 ({{1}}) is missing: the template's body takes 2 parameters, 0 given",
    );
    expect(sim.accepted).toHaveLength(0);
    const accepted = await sim.sendMessage(sender, templatePayload("order_update", [body("Ana", "A-1")]));
    expect(accepted).toMatchObject({ ok: true });
    // Another customer's number does not see this customer's template: nothing to check against.
    const other = await createTestCustomer();
    const otherSender = {
      phoneNumberId: other.sender.phoneNumberId ?? "",
      phoneNumber: other.sender.phoneNumber,
      wabaId: other.sender.wabaId,
    };
    expect(await sim.sendMessage(otherSender, templatePayload("order_update"))).toMatchObject({ ok: true });
  });

  it("refuses a parameter of the wrong kind for a template it created, with 132012", async () => {
    const sim = simulator();
    const sender = { phoneNumberId: "555000111", phoneNumber: "+14155550100", wabaId: "waba-sim-test" };
    await sim.createTemplate(sender, {
      name: "receipt",
      language: "en",
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "DOCUMENT" },
        { type: "BODY", text: "Your receipt" },
      ],
    });
    const wrong = await sim.sendMessage(
      sender,
      templatePayload("receipt", [{ type: "header", parameters: [{ type: "text", text: "x" }] }]),
    );
    expect(wrong).toMatchObject({ ok: false, code: 132012 });
    const right = await sim.sendMessage(
      sender,
      templatePayload("receipt", [
        { type: "header", parameters: [{ type: "document", document: { link: "https://x.test/r.pdf" } }] },
      ]),
    );
    expect(right).toMatchObject({ ok: true });
  });
});
