// A template is reviewed per business account: one for a sender without a business account id
// would stay PENDING for ever (the verdict can never come), so POST /templates refuses it with
// the setup error that names what is missing, and nothing is created at the provider or here
// (docs/templates.md "Review").
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer } from "@/test/factory";

recordApiAnswers();

describe("POST /templates for a sender without a business account id", () => {
  it("is WHATSAPP_SETUP_INCOMPLETE naming wabaId, and creates nothing", async () => {
    const t = await createTestCustomer();
    await db.sender.update({ where: { id: t.sender.id }, data: { wabaId: null } });
    const name = `no_account_${Date.now()}`;
    const res = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: { template: { name, category: "utility", components: [{ type: "BODY", text: "Hello there" }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("WHATSAPP_SETUP_INCOMPLETE");
    expect(res.body.message).toContain(`Sender ${t.sender.phoneNumber} has no business account id (wabaId)`);
    expect(res.body.details).toMatchObject({ senderId: t.sender.phoneNumber, missing: "wabaId" });
    expect(await db.template.count({ where: { customerId: t.customer.id, name } })).toBe(0);

    // The same request for a sender with its business account id is accepted (PENDING, then reviewed).
    const ok = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      query: { senderId: t.otherSender.phoneNumber },
      body: { template: { name, category: "utility", components: [{ type: "BODY", text: "Hello there" }] } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.status).toBe("PENDING");
  });
});
