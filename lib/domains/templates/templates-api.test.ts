// Templates through the real router: list (v3 source and correctCategory, source filter),
// read by uid or name, create (X-Service-Template-Uid), sync from the provider.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { recordApiAnswers } from "@/test/api-answers";
import { call } from "@/test/factory";
import { addTemplate, messagingCustomer } from "@/test/messaging-fixtures";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

describe("GET /templates", () => {
  it("lists templates with v3 fields, filters by source on v3 and paginates", async () => {
    const t = await messagingCustomer();
    await addTemplate(t.customer.id, { name: "switchboard_direct_utility", source: "AUTO_GENERATED" });
    await db.template.updateMany({ where: { id: t.marketing.id }, data: { correctCategory: "UTILITY" } });
    const v3 = await call("GET", "/api/v3/templates", { token: t.globalToken });
    expect(v3.status).toBe(200);
    expect(v3.body.data.pagination).toMatchObject({ page: 1, limit: 50, total: 3, count: 3, hasMore: false });
    const sale = v3.body.data.templates.find((x: { name: string }) => x.name === "spring_sale");
    expect(sale).toMatchObject({
      templateUid: t.marketing.id,
      source: "MANUAL",
      correctCategory: "UTILITY",
      status: "APPROVED",
    });
    const v2 = await call("GET", "/api/v2/templates", { token: t.globalToken, query: { source: "AUTO_GENERATED" } });
    expect(v2.body.data.templates).toHaveLength(3);
    expect(v2.body.data.templates[0]).not.toHaveProperty("source");
    expect(v2.body.data.templates[0]).not.toHaveProperty("correctCategory");
    const auto = await call("GET", "/api/v3/templates", { token: t.globalToken, query: { source: "auto_generated" } });
    expect(auto.body.data.templates.map((x: { name: string }) => x.name)).toEqual(["switchboard_direct_utility"]);
    const manual = await call("GET", "/api/v3/templates", {
      token: t.globalToken,
      query: { source: "MANUAL", limit: 1, page: 0 },
    });
    expect(manual.body.data.pagination).toMatchObject({ page: 1, limit: 1, total: 2, count: 1, hasMore: true });
    const byCategory = await call("GET", "/api/v3/templates", {
      token: t.scopedToken,
      query: { category: "marketing" },
    });
    expect(byCategory.body.data.templates.map((x: { name: string }) => x.name)).toEqual(["spring_sale"]);
    const bad = await call("GET", "/api/v3/templates", { token: t.globalToken, query: { source: "OTHER" } });
    expect(bad.status).toBe(400);
  });

  it("reads one template by uid or by name, only within the customer", async () => {
    const t = await messagingCustomer();
    const byUid = await call("GET", `/api/v3/templates/${t.template.id}`, { token: t.globalToken });
    expect(byUid.status).toBe(200);
    expect(byUid.body.data).toMatchObject({ name: "order_update", source: "MANUAL" });
    const byName = await call("GET", "/api/v2/templates/spring_sale", { token: t.globalToken });
    expect(byName.body.data.templateUid).toBe(t.marketing.id);
    expect(byName.body.data).not.toHaveProperty("source");
    const other = await messagingCustomer();
    const foreign = await call("GET", `/api/v3/templates/${t.template.id}`, { token: other.globalToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("NOT_FOUND");
  });
});

describe("POST /templates", () => {
  it("creates a template through the provider, returns X-Service-Template-Uid, then gets approved", async () => {
    const t = await messagingCustomer();
    const body = {
      template: {
        name: "shipping_notice",
        language: "en_US",
        category: "utility",
        components: [{ type: "BODY", text: "Shipped {{1}}" }],
      },
    };
    const res = await call("POST", "/api/v3/templates", { token: t.globalToken, body });
    expect(res.status).toBe(201);
    const uid = res.headers.get("x-service-template-uid");
    expect(uid).toBe(res.body.data.templateUid);
    expect(res.body.data).toMatchObject({
      name: "shipping_notice",
      category: "UTILITY",
      status: "PENDING",
      source: "MANUAL",
    });
    expect(res.body.data.providerTemplateId).toMatch(/^\d{15}$/);
    const dup = await call("POST", "/api/v2/templates", { token: t.globalToken, body });
    expect(dup.status).toBe(409);
    expect(dup.body.error_code).toBe("TEMPLATE_ALREADY_EXISTS");
    const bad = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: { template: { name: "Bad Name", category: "utility", components: [] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(["body.template.name", "body.template.components"]),
    );
    // The simulator reviews it and tells us through a signed template status callback.
    await expect
      .poll(
        async () => db.providerCallback.count({ where: { body: { contains: res.body.data.providerTemplateId } } }),
        {
          timeout: 5_000,
        },
      )
      .toBeGreaterThan(0);
  });

  it("a template the simulator's review rejects gets REJECTED with its reason through the callback", async () => {
    const t = await messagingCustomer();
    const res = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: {
        template: {
          name: "code_at_end",
          category: "utility",
          components: [{ type: "BODY", text: "Your code is {{1}}", example: { body_text: [["123456"]] } }],
        },
      },
    });
    expect(res.status).toBe(201);
    const uid = res.body.data.templateUid;
    await expect
      .poll(
        async () => {
          await processPendingCallbacks(200);
          return (await call("GET", `/api/v3/templates/${uid}`, { token: t.globalToken })).body.data;
        },
        { timeout: 10_000 },
      )
      .toMatchObject({
        status: "REJECTED",
        rejectionReason:
          "INVALID_FORMAT: The body may not start or end with a variable: put text before the first and after the last.",
      });
  });

  it("syncs the business account's templates from the provider", async () => {
    const t = await messagingCustomer();
    await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: { template: { name: "welcome", category: "marketing", components: [{ type: "BODY", text: "Hi" }] } },
    });
    await db.template.deleteMany({ where: { customerId: t.customer.id, name: "welcome" } });
    const res = await call("POST", "/api/v3/templates/sync", { token: t.globalToken });
    expect(res.status).toBe(200);
    // The account's own template and the provider's approved sample every account has.
    expect(res.body.data.synced).toBe(2);
    const back = await call("GET", "/api/v3/templates/welcome", { token: t.globalToken });
    expect(back.body.data.category).toBe("MARKETING");
    const sample = await call("GET", "/api/v3/templates/hello_world", { token: t.globalToken });
    expect(sample.body.data).toMatchObject({ name: "hello_world", language: "en_US", status: "APPROVED" });
  });
});
