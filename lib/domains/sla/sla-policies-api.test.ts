// The SLA policies API (docs/reports.md "SLA policies"): create, read, list in the account's
// order, update (and move), delete; validation naming the field; audit entries; every route
// scoped to its account; members checked in the service.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { createPolicy, listPolicies } from "./service";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

type Customer = Awaited<ReturnType<typeof createTestCustomer>>;
let a: Customer;
let b: Customer;

const POLICY = { name: "Standard", firstResponseMinutes: 15, nextResponseMinutes: 60, resolutionMinutes: 480 };
const fieldsOf = (body: { details?: { fields?: { path: string; message: string }[] } }) =>
  (body.details?.fields ?? []).map((f) => f.path);
const names = (body: { data: { policies: { name: string }[] } }) => body.data.policies.map((x) => x.name);

beforeAll(async () => {
  a = await createTestCustomer();
  b = await createTestCustomer();
  // A policy applies by the account's labels only.
  for (const name of ["VIP", "billing"]) {
    const made = await call("POST", "/api/v3/labels", { token: a.globalToken, body: { label: { name } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
});

describe("SLA policies", () => {
  it("create, read, list, update, delete, each audited; v2 and v3 alike", async () => {
    const created = await call("POST", "/api/v2/sla-policies", {
      token: a.globalToken,
      body: {
        policy: {
          ...POLICY,
          businessHoursOnly: true,
          applies: { senderIds: [a.otherSender.phoneNumber], labels: ["VIP", "vip", "billing"] },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const policy = created.body.data;
    expect(policy).toMatchObject({
      name: "Standard",
      position: 0,
      firstResponseMinutes: 15,
      nextResponseMinutes: 60,
      resolutionMinutes: 480,
      businessHoursOnly: true,
      // Labels are matched whatever the case: one of each.
      applies: { senderIds: [a.otherSender.phoneNumber], labels: ["vip", "billing"] },
    });
    const uid = policy.slaUid as string;
    expect(uid).toMatch(/^sla_/);

    const read = await call("GET", `/api/v3/sla-policies/${uid}`, { token: a.globalToken });
    expect(read.body.data).toEqual(policy);
    const list = await call("GET", "/api/v3/sla-policies", { token: a.globalToken });
    expect(list.body.data.policies).toEqual([policy]);

    const updated = await call("POST", `/api/v3/sla-policies/${uid}`, {
      token: a.globalToken,
      body: { policy: { name: "Standard!", resolutionMinutes: null, applies: {} } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: "Standard!",
      firstResponseMinutes: 15,
      resolutionMinutes: null,
      applies: { senderIds: [], labels: [] },
    });

    const deleted = await call("DELETE", `/api/v3/sla-policies/${uid}`, { token: a.globalToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ slaUid: uid, deleted: true });
    expect((await call("GET", `/api/v3/sla-policies/${uid}`, { token: a.globalToken })).body.error_code).toBe(
      "SLA_POLICY_NOT_FOUND",
    );

    const audit = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, targetUid: uid },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual(["sla_policy.created", "sla_policy.updated", "sla_policy.deleted"]);
  });

  it("the account's order: new ones go last, position moves one, a delete closes the gap", async () => {
    const c = await createTestCustomer();
    const uids: string[] = [];
    for (const name of ["one", "two", "three"]) {
      const res = await call("POST", "/api/v3/sla-policies", {
        token: c.globalToken,
        body: { policy: { name, firstResponseMinutes: 5 } },
      });
      expect(res.status).toBe(201);
      uids.push(res.body.data.slaUid);
    }
    const order = async () => names((await call("GET", "/api/v3/sla-policies", { token: c.globalToken })).body);
    expect(await order()).toEqual(["one", "two", "three"]);
    const moved = await call("POST", `/api/v3/sla-policies/${uids[2]}`, {
      token: c.globalToken,
      body: { policy: { position: 0 } },
    });
    expect(moved.body.data.position).toBe(0);
    expect(await order()).toEqual(["three", "one", "two"]);
    // A place past the end is the end.
    await call("POST", `/api/v3/sla-policies/${uids[2]}`, { token: c.globalToken, body: { policy: { position: 99 } } });
    expect(await order()).toEqual(["one", "two", "three"]);
    await call("DELETE", `/api/v3/sla-policies/${uids[0]}`, { token: c.globalToken });
    const rest = (await call("GET", "/api/v3/sla-policies", { token: c.globalToken })).body.data.policies;
    expect(rest.map((x: { name: string; position: number }) => [x.name, x.position])).toEqual([
      ["two", 0],
      ["three", 1],
    ]);
  });

  it("validation names the field", async () => {
    const refused = async (policy: Record<string, unknown>, uid?: string) => {
      const res = await call("POST", uid ? `/api/v3/sla-policies/${uid}` : "/api/v3/sla-policies", {
        token: a.globalToken,
        body: { policy },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(res.body).toMatchObject({ success: false, metadata: { requestId: expect.any(String) } });
      return fieldsOf(res.body);
    };
    const before = await db.slaPolicy.count({ where: { customerId: a.customer.id } });
    expect(await refused({ ...POLICY, name: "" })).toContain("body.policy.name");
    expect(await refused({ ...POLICY, firstResponseMinutes: 0 })).toContain("body.policy.firstResponseMinutes");
    expect(await refused({ ...POLICY, nextResponseMinutes: 1.5 })).toContain("body.policy.nextResponseMinutes");
    expect(await refused({ ...POLICY, resolutionMinutes: "8h" })).toContain("body.policy.resolutionMinutes");
    expect(await refused({ ...POLICY, businessHoursOnly: "yes" })).toContain("body.policy.businessHoursOnly");
    expect(await refused({ name: "none" })).toContain("body.policy.firstResponseMinutes");
    expect(await refused({ ...POLICY, applies: { labels: [""] } })).toContain("body.policy.applies.labels.0");
    expect(await refused({ ...POLICY, applies: { senderIds: ["+15550000000"] } })).toContain(
      "body.policy.applies.senderIds.0",
    );
    expect(await refused({ ...POLICY, colour: "red" })).toContain("body.policy");
    // A label the account has not (another account's is not this one's), named by its place.
    await call("POST", "/api/v3/labels", { token: b.globalToken, body: { label: { name: "gold" } } });
    expect(await refused({ ...POLICY, name: "Labelled", applies: { labels: ["vip", "gold"] } })).toEqual([
      "body.policy.applies.labels.1",
    ]);
    expect(await db.slaPolicy.count({ where: { customerId: a.customer.id } })).toBe(before);

    const created = await call("POST", "/api/v3/sla-policies", {
      token: a.globalToken,
      body: { policy: { ...POLICY, name: "Validated" } },
    });
    const uid = created.body.data.slaUid as string;
    expect(await refused({}, uid)).toContain("body.policy");
    expect(await refused({ position: -1 }, uid)).toContain("body.policy.position");
    // Removing the last target it has is refused, naming a target.
    expect(
      await refused({ firstResponseMinutes: null, nextResponseMinutes: null, resolutionMinutes: null }, uid),
    ).toContain("body.policy.firstResponseMinutes");
    expect((await call("GET", `/api/v3/sla-policies/${uid}`, { token: a.globalToken })).body.data).toEqual(
      created.body.data,
    );
  });

  it("every route is the account's own: another account's uid is SLA_POLICY_NOT_FOUND, its list is apart", async () => {
    const created = await call("POST", "/api/v3/sla-policies", { token: a.globalToken, body: { policy: POLICY } });
    const uid = created.body.data.slaUid as string;
    for (const [method, path, body] of [
      ["GET", `/api/v3/sla-policies/${uid}`, undefined],
      ["POST", `/api/v3/sla-policies/${uid}`, { policy: { name: "theirs" } }],
      ["DELETE", `/api/v3/sla-policies/${uid}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: b.globalToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe("SLA_POLICY_NOT_FOUND");
    }
    const list = await call("GET", "/api/v3/sla-policies", { token: b.globalToken });
    expect(list.body.data.policies).toEqual([]);
    expect((await db.slaPolicy.findUniqueOrThrow({ where: { id: uid } })).name).toBe("Standard");
    // B's sender is not one of A's.
    const foreign = await call("POST", "/api/v3/sla-policies", {
      token: a.globalToken,
      body: { policy: { ...POLICY, name: "Foreign sender", applies: { senderIds: [b.sender.phoneNumber] } } },
    });
    expect(fieldsOf(foreign.body)).toContain("body.policy.applies.senderIds.0");
    // Account-wide: a number-scoped token is refused.
    const scoped = await call("GET", "/api/v3/sla-policies", { token: a.scopedToken });
    expect(scoped.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
  });

  it("a name is the account's only one whatever the case, on create and on rename; another account may use it", async () => {
    const c = await createTestCustomer();
    const create = (name: string, token = c.globalToken) =>
      call("POST", "/api/v3/sla-policies", { token, body: { policy: { ...POLICY, name } } });
    expect((await create("Gold customers")).status).toBe(201);
    const again = await create("gold CUSTOMERS");
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe("VALIDATION_FAILED");
    expect(fieldsOf(again.body)).toEqual(["body.policy.name"]);
    expect(again.body.message).toContain("already exists");
    const other = await create("Silver");
    const renamed = await call("POST", `/api/v3/sla-policies/${other.body.data.slaUid}`, {
      token: c.globalToken,
      body: { policy: { name: "Gold Customers" } },
    });
    expect(fieldsOf(renamed.body)).toEqual(["body.policy.name"]);
    // Its own name again (another case) is no clash; another account's name is not this account's.
    const same = await call("POST", `/api/v3/sla-policies/${other.body.data.slaUid}`, {
      token: c.globalToken,
      body: { policy: { name: "SILVER" } },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await create("Gold customers", b.globalToken)).status).toBe(201);
    expect(names((await call("GET", "/api/v3/sla-policies", { token: c.globalToken })).body)).toEqual([
      "Gold customers",
      "SILVER",
    ]);
  });

  it("members: the service refuses a role without the automations permission", async () => {
    const input = {
      ...POLICY,
      name: "By a member",
      businessHoursOnly: false,
      applies: { senderIds: [], labels: [] },
    };
    const agent = memberPrincipal(a.customer.id, { role: "agent" });
    await expect(createPolicy(agent, input)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(listPolicies(agent)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    expect((await createPolicy(admin, input)).customerId).toBe(a.customer.id);
    expect((await listPolicies(admin)).length).toBeGreaterThan(0);
  });
});
