// The automation and business hours API (docs/automation.md "API"): create, read, list, update,
// delete and the runs log; validation naming the field; linear-time patterns only; audit
// entries; every route scoped to its account; members checked in the service.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { RuleCreateInput } from "./schemas";
import { createRule, listRules, updateRule } from "./service";
import { getBusinessHoursSetting } from "./settings";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

type Customer = Awaited<ReturnType<typeof createTestCustomer>>;
let a: Customer;
let b: Customer;

const RULE = {
  name: "Refunds",
  trigger: { event: "message.inbound" },
  conditions: [{ field: "message.text", op: "contains", value: "refund" }],
  actions: [{ type: "note", text: "refund" }],
};
const fieldsOf = (body: { details?: { fields?: { path: string; message: string }[] } }) =>
  (body.details?.fields ?? []).map((f) => f.path);

beforeAll(async () => {
  a = await createTestCustomer();
  b = await createTestCustomer();
});

describe("rules", () => {
  it("create, read, list, update, delete, each audited; v2 and v3 alike", async () => {
    const created = await call("POST", "/api/v2/automations", {
      token: a.globalToken,
      body: { rule: { ...RULE, senderIds: [a.otherSender.phoneNumber] } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rule = created.body.data;
    expect(rule).toMatchObject({
      name: "Refunds",
      enabled: true,
      trigger: { event: "message.inbound" },
      senderIds: [a.otherSender.phoneNumber],
    });
    const uid = rule.ruleUid as string;

    const read = await call("GET", `/api/v3/automations/${uid}`, { token: a.globalToken });
    expect(read.body.data).toEqual(rule);
    const list = await call("GET", "/api/v3/automations", { token: a.globalToken });
    expect(list.body.data.rules.map((r: { ruleUid: string }) => r.ruleUid)).toContain(uid);

    const updated = await call("POST", `/api/v3/automations/${uid}`, {
      token: a.globalToken,
      body: { rule: { enabled: false, name: "Refunds!" } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ enabled: false, name: "Refunds!" });

    const runs = await call("GET", `/api/v3/automations/${uid}/runs`, { token: a.globalToken });
    expect(runs.status).toBe(200);
    expect(runs.body.data).toMatchObject({ runs: [], items: [], pagination: { total: 0 } });

    const deleted = await call("DELETE", `/api/v3/automations/${uid}`, { token: a.globalToken });
    expect(deleted.status).toBe(200);
    expect((await call("GET", `/api/v3/automations/${uid}`, { token: a.globalToken })).body.error_code).toBe(
      "AUTOMATION_NOT_FOUND",
    );

    const audit = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, targetUid: uid },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual(["automation.created", "automation.updated", "automation.deleted"]);
  });

  it("validation names the field; a pattern that is not linear-time is refused", async () => {
    const refused = async (rule: Record<string, unknown>) => {
      const res = await call("POST", "/api/v3/automations", { token: a.globalToken, body: { rule } });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      return fieldsOf(res.body);
    };
    expect(await refused({ ...RULE, trigger: { event: "conversation.idle" } })).toContain("body.rule.trigger.minutes");
    expect(await refused({ ...RULE, trigger: { event: "message.sent" } })).toContain("body.rule.trigger.event");
    // A backreference needs backtracking: re2 has none.
    expect(
      await refused({ ...RULE, conditions: [{ field: "message.text", op: "matches", value: "(a+)\\1" }] }),
    ).toContain("body.rule.conditions.0.value");
    expect(
      await refused({ ...RULE, conditions: [{ field: "message.text", op: "matches", value: "a{1000}" }] }),
    ).toContain("body.rule.conditions.0.value");
    expect(
      await refused({ ...RULE, conditions: [{ field: "contact.label", op: "contains", value: "vip" }] }),
    ).toContain("body.rule.conditions.0.op");
    expect(await refused({ ...RULE, conditions: [{ field: "mood", op: "eq", value: "x" }] })).toContain(
      "body.rule.conditions.0.field",
    );
    expect(await refused({ ...RULE, actions: [{ type: "assign" }] })).toContain("body.rule.actions.0.assignee");
    expect(await refused({ ...RULE, actions: [] })).toContain("body.rule.actions");
    expect(await refused({ ...RULE, senderIds: ["+15550000000"] })).toContain("body.rule.senderIds.0");
    expect(await db.automationRule.count({ where: { customerId: a.customer.id } })).toBe(0);
  });

  it("every route is the account's own: another account's uid is AUTOMATION_NOT_FOUND, its list is apart", async () => {
    const created = await call("POST", "/api/v3/automations", { token: a.globalToken, body: { rule: RULE } });
    const uid = created.body.data.ruleUid as string;
    for (const [method, path, body] of [
      ["GET", `/api/v3/automations/${uid}`, undefined],
      ["POST", `/api/v3/automations/${uid}`, { rule: { enabled: false } }],
      ["DELETE", `/api/v3/automations/${uid}`, undefined],
      ["GET", `/api/v3/automations/${uid}/runs`, undefined],
    ] as const) {
      const res = await call(method, path, { token: b.globalToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe("AUTOMATION_NOT_FOUND");
    }
    const list = await call("GET", "/api/v3/automations", { token: b.globalToken });
    expect(list.body.data.rules).toEqual([]);
    expect((await db.automationRule.findUniqueOrThrow({ where: { id: uid } })).enabled).toBe(true);
    // Account-wide: a number-scoped token is refused.
    const scoped = await call("GET", "/api/v3/automations", { token: a.scopedToken });
    expect(scoped.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
  });

  it("members: the service refuses a role without the automations permission", async () => {
    const agent = memberPrincipal(a.customer.id, { role: "agent" });
    await expect(
      createRule(agent, {
        ...RULE,
        enabled: true,
        senderIds: [],
        trigger: { event: "message.inbound" },
        conditions: [],
        actions: [{ type: "note", text: "x" }],
      }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(listRules(agent, { page: 1, limit: 10 })).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(getBusinessHoursSetting(agent)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    expect((await listRules(admin, { page: 1, limit: 10 })).total).toBeGreaterThan(0);
  });

  it("every label a rule names is one of the account's, else VALIDATION_FAILED naming each field; API and dashboard alike", async () => {
    const label = async (customer: Customer, name: string) =>
      (await call("POST", "/api/v3/labels", { token: customer.globalToken, body: { label: { name } } })).body.data
        .labelUid as string;
    await label(a, "Refund");
    await label(b, "Elsewhere"); // another account's label is no label here
    const named = {
      ...RULE,
      conditions: [
        { field: "conversation.label", op: "not_has", value: "refund" },
        { field: "contact.label", op: "has", value: "gone" },
      ],
      actions: [
        { type: "note", text: "n" },
        { type: "label", labels: ["REFUND", "Elsewhere"] },
        { type: "unlabel", labels: ["never"] },
      ],
    };
    const before = await db.automationRule.count({ where: { customerId: a.customer.id } });
    const refused = await call("POST", "/api/v3/automations", { token: a.globalToken, body: { rule: named } });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    expect(fieldsOf(refused.body)).toEqual([
      "body.rule.conditions.1.value",
      "body.rule.actions.1.labels.1",
      "body.rule.actions.2.labels.0",
    ]);
    expect(refused.body.message).toContain('no label named "gone"');
    expect(await db.automationRule.count({ where: { customerId: a.customer.id } })).toBe(before);

    // The dashboard's editor saves through the same service: the same refusal, the same fields.
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    const parsed = RuleCreateInput.parse(named);
    await expect(createRule(admin, parsed)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { fields: expect.arrayContaining([expect.objectContaining({ path: "body.rule.actions.1.labels.1" })]) },
    });

    // Named whatever the case, every one the account's: saved.
    const billingUid = await label(a, "Billing");
    const ok = await call("POST", "/api/v3/automations", {
      token: a.globalToken,
      body: {
        rule: {
          ...named,
          conditions: [{ field: "contact.label", op: "has", value: "refund" }],
          actions: [{ type: "label", labels: ["REFUND", "billing"] }],
        },
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const uid = ok.body.data.ruleUid as string;

    // An update is checked the same way, and changes nothing when refused.
    const update = await call("POST", `/api/v3/automations/${uid}`, {
      token: a.globalToken,
      body: {
        rule: {
          actions: [
            { type: "note", text: "x" },
            { type: "unlabel", labels: ["nope"] },
          ],
        },
      },
    });
    expect(update.status).toBe(400);
    expect(fieldsOf(update.body)).toEqual(["body.rule.actions.1.labels.0"]);
    await expect(
      updateRule(admin, uid, { conditions: [{ field: "conversation.label", op: "has", value: "nope" }] }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await db.automationRule.findUniqueOrThrow({ where: { id: uid } })).actions).toEqual([
      { type: "label", labels: ["REFUND", "billing"] },
    ]);

    // A label deleted later: the rule stays (its runs record the action failed, see the engine
    // tests), and a change that does not name labels, switching it off, is still accepted.
    expect((await call("DELETE", `/api/v3/labels/${billingUid}`, { token: a.globalToken })).status).toBe(200);
    const off = await call("POST", `/api/v3/automations/${uid}`, {
      token: a.globalToken,
      body: { rule: { enabled: false } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
  });
});

describe("business hours", () => {
  it("set and read, audited; validation names the field; apart per account", async () => {
    const hours = {
      timezone: "Europe/Berlin",
      days: [
        { day: 1, open: "09:00", close: "12:00" },
        { day: 1, open: "13:00", close: "17:00" },
      ],
      holidays: ["2026-12-25"],
    };
    const set = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: { businessHours: hours, awayReply: { enabled: true, text: "Closed" } },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({ businessHours: hours, awayReply: { enabled: true, text: "Closed" } });
    expect((await call("GET", "/api/v2/settings/business-hours", { token: a.globalToken })).body.data).toEqual(
      set.body.data,
    );
    expect((await call("GET", "/api/v3/settings/business-hours", { token: b.globalToken })).body.data).toEqual({
      businessHours: null,
      awayReply: { enabled: false, text: null },
    });
    // The built-in away rule is the setting's, not a rule of the list.
    const list = await call("GET", "/api/v3/automations", { token: a.globalToken });
    expect(list.body.data.rules.map((r: { name: string }) => r.name)).not.toContain("Away reply");

    const bad = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: { businessHours: { ...hours, timezone: "Mars/Base" } },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toContain("body.businessHours.timezone");
    // A zone Node's Intl knows and the database does not: refused before anything is written.
    const legacy = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: { businessHours: { ...hours, timezone: "US/Pacific-New" } },
    });
    expect(legacy.status).toBe(400);
    expect(fieldsOf(legacy.body)).toContain("body.businessHours.timezone");
    const overlapping = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: {
        businessHours: {
          ...hours,
          days: [
            { day: 1, open: "09:00", close: "17:00" },
            { day: 1, open: "16:00", close: "18:00" },
          ],
        },
      },
    });
    expect(fieldsOf(overlapping.body)).toContain("body.businessHours.days.1");
    expect(
      (await call("GET", "/api/v3/settings/business-hours", { token: a.globalToken })).body.data.businessHours,
    ).toMatchObject({ timezone: "Europe/Berlin" });
    const badDay = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: { businessHours: { ...hours, days: [{ day: 7, open: "09:00", close: "10:00" }] } },
    });
    expect(fieldsOf(badDay.body)).toContain("body.businessHours.days.0.day");
    const off = await call("POST", "/api/v3/settings/business-hours", {
      token: a.globalToken,
      body: { awayReply: { enabled: false } },
    });
    expect(off.body.data.awayReply).toEqual({ enabled: false, text: "Closed" });
    const audit = await db.auditEvent.count({ where: { customerId: a.customer.id, action: "business_hours.updated" } });
    expect(audit).toBe(2);
  });
});
