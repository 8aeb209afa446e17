// The senders routes (docs/messaging.md "Senders") through the real router: list, connect
// (simulated phone number id, hello_world synced), make default (exactly one), validation,
// Idempotency-Key replay, tenant isolation and number-scoped token limits.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { setProvider } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { providerKnows } from "@/test/provider-stub";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

afterEach(() => {
  delete process.env.PROVIDER_MODE;
  resetEnvCache();
  setProvider(undefined);
});

const key = () => ({ "Idempotency-Key": `snd-${randomBytes(6).toString("hex")}` });
const defaults = (customerId: string) =>
  db.sender.findMany({ where: { customerId, isDefault: true }, select: { phoneNumber: true } });

describe("GET /senders", () => {
  it("lists the account's senders, the default first; a number-scoped token sees only its own", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    const res = await call("GET", "/api/v3/senders", { token: t.globalToken });
    expect(res.status).toBe(200);
    const phones = res.body.data.senders.map((s: { phoneNumber: string }) => s.phoneNumber);
    expect(phones).toEqual([t.sender.phoneNumber, t.otherSender.phoneNumber, t.incompleteSender.phoneNumber]);
    expect(res.body.data.senders[0]).toMatchObject({
      phoneNumber: t.sender.phoneNumber,
      phoneNumberId: t.sender.phoneNumberId,
      isDefault: true,
      status: "CONNECTED",
    });
    expect(res.body.data.senders[2].phoneNumberId).toBeNull();
    expect(phones).not.toContain(other.sender.phoneNumber);
    const scoped = await call("GET", "/api/v2/senders", { token: t.scopedToken });
    expect(scoped.status).toBe(200);
    expect(scoped.body.data.senders.map((s: { phoneNumber: string }) => s.phoneNumber)).toEqual([t.sender.phoneNumber]);
  });
});

describe("POST /senders", () => {
  it("connects a number with a simulated phone number id and syncs hello_world", async () => {
    const t = await createTestCustomer();
    const phoneNumber = uniquePhone();
    const res = await call("POST", "/api/v3/senders", { token: t.globalToken, body: { sender: { phoneNumber } } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ phoneNumber, isDefault: false, status: "CONNECTED" });
    expect(res.body.data.phoneNumberId).toMatch(/^9\d{14}$/);
    const stored = await db.sender.findUniqueOrThrow({ where: { phoneNumber } });
    expect(stored.customerId).toBe(t.customer.id);
    const templates = await db.template.findMany({ where: { customerId: t.customer.id, wabaId: stored.wabaId } });
    expect(templates.map((x) => [x.name, x.status])).toContainEqual(["hello_world", "APPROVED"]);
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.sender.phoneNumber }]);
  });

  it("with makeDefault, the new sender is the one default", async () => {
    const t = await createTestCustomer();
    const phoneNumber = uniquePhone();
    const res = await call("POST", "/api/v2/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber, makeDefault: true } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.isDefault).toBe(true);
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber }]);
  });

  it("refuses bad input with VALIDATION_FAILED naming the field, and writes nothing", async () => {
    const t = await createTestCustomer();
    const before = await db.sender.count({ where: { customerId: t.customer.id } });
    const cases = [
      [{ sender: { phoneNumber: "12" } }, "body.sender.phoneNumber"],
      [{ sender: { phoneNumber: "" } }, "body.sender.phoneNumber"],
      [{ sender: { phoneNumber: uniquePhone(), phoneNumberId: "no spaces!" } }, "body.sender.phoneNumberId"],
      [{ sender: { phoneNumber: uniquePhone(), makeDefault: "yes" } }, "body.sender.makeDefault"],
      [{ phoneNumber: uniquePhone() }, "body.sender"],
      // Already connected: ours, or another customer's (the CLI's refusal, without its owner).
      [{ sender: { phoneNumber: t.otherSender.phoneNumber } }, "body.sender.phoneNumber"],
      [{ sender: { phoneNumber: (await createTestCustomer()).sender.phoneNumber } }, "body.sender.phoneNumber"],
      [{ sender: { phoneNumber: uniquePhone(), phoneNumberId: t.sender.phoneNumberId } }, "body.sender.phoneNumberId"],
    ] as const;
    for (const [body, path] of cases) {
      const res = await call("POST", "/api/v3/senders", { token: t.globalToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
      expect(JSON.stringify(res.body)).not.toMatch(/customer|cm[a-z0-9]{20}/i);
    }
    expect(await db.sender.count({ where: { customerId: t.customer.id } })).toBe(before);
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.sender.phoneNumber }]);
  });

  it("with a provider, the phone number id is required and must be that number's", async () => {
    const t = await createTestCustomer();
    const phoneNumber = uniquePhone();
    const id = `7${Date.now()}`;
    providerKnows(id, phoneNumber.slice(1));
    const refused = [
      { phoneNumber },
      { phoneNumber, phoneNumberId: "000111" },
      { phoneNumber: uniquePhone(), phoneNumberId: id },
    ];
    for (const sender of refused) {
      const res = await call("POST", "/api/v3/senders", { token: t.globalToken, body: { sender } });
      expect(res.status, JSON.stringify(sender)).toBe(400);
      expect(res.body.details.fields[0].path).toBe("body.sender.phoneNumberId");
    }
    expect(await db.sender.count({ where: { customerId: t.customer.id } })).toBe(3);
    const res = await call("POST", "/api/v3/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber, phoneNumberId: id } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ phoneNumber, phoneNumberId: id, isDefault: false });
  });

  it("replays the first answer for the same Idempotency-Key: one sender", async () => {
    const t = await createTestCustomer();
    const headers = key();
    const phoneNumber = uniquePhone();
    const body = { sender: { phoneNumber } };
    const first = await call("POST", "/api/v3/senders", { token: t.globalToken, body, headers });
    const again = await call("POST", "/api/v3/senders", { token: t.globalToken, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    expect(await db.sender.count({ where: { phoneNumber } })).toBe(1);
    // The same key with another body is refused, not a second sender.
    const other = await call("POST", "/api/v3/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber: uniquePhone() } },
      headers,
    });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(await db.sender.count({ where: { customerId: t.customer.id } })).toBe(4);
  });

  it("refuses a number-scoped token: TOKEN_SCOPE_NOT_ALLOWED, nothing written", async () => {
    const t = await createTestCustomer();
    const phoneNumber = uniquePhone();
    const res = await call("POST", "/api/v3/senders", { token: t.scopedToken, body: { sender: { phoneNumber } } });
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    expect(await db.sender.count({ where: { phoneNumber } })).toBe(0);
  });
});

describe("POST /senders/{senderId}/default", () => {
  const path = (phone: string) => `/api/v3/senders/${encodeURIComponent(phone)}/default`;

  it("makes the sender the one default", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", path(t.otherSender.phoneNumber), { token: t.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ phoneNumber: t.otherSender.phoneNumber, isDefault: true });
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.otherSender.phoneNumber }]);
    // Again: still exactly one.
    expect((await call("POST", path(t.otherSender.phoneNumber), { token: t.globalToken })).status).toBe(200);
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.otherSender.phoneNumber }]);
    const list = await call("GET", "/api/v3/senders", { token: t.globalToken });
    expect(list.body.data.senders[0].phoneNumber).toBe(t.otherSender.phoneNumber);
  });

  it("another customer's sender or an unknown number is SENDER_NOT_FOUND; neither account changes", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    for (const phone of [other.otherSender.phoneNumber, uniquePhone(), "not-a-number"]) {
      const res = await call("POST", path(phone), { token: t.globalToken });
      expect(res.status, phone).toBe(404);
      expect(res.body.error_code).toBe("SENDER_NOT_FOUND");
    }
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.sender.phoneNumber }]);
    expect(await defaults(other.customer.id)).toEqual([{ phoneNumber: other.sender.phoneNumber }]);
  });

  it("refuses a number-scoped token, even on its own sender", async () => {
    const t = await createTestCustomer();
    for (const phone of [t.sender.phoneNumber, t.otherSender.phoneNumber]) {
      const res = await call("POST", path(phone), { token: t.scopedToken });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    }
    expect(await defaults(t.customer.id)).toEqual([{ phoneNumber: t.sender.phoneNumber }]);
  });
});

describe("GET /{phoneNumberId} (provider-compatible)", () => {
  it("answers the phone number as the provider does; another account's id is the provider's error", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    for (const v of ["v2", "v3"]) {
      const res = await call("GET", `/api/${v}/${t.sender.phoneNumberId}`, { token: t.globalToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: t.sender.phoneNumberId,
        code_verification_status: "VERIFIED",
        platform_type: "CLOUD_API",
        throughput: { level: "STANDARD" },
        messaging_limit_tier: "TIER_10K",
      });
      expect(res.body.display_phone_number.replace(/\D/g, "")).toBe(t.sender.phoneNumber.slice(1));
    }
    const foreign = await call("GET", `/api/v3/${other.sender.phoneNumberId}`, { token: t.globalToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ error_data: { error_code: "SENDER_NOT_FOUND" } });
    // A number-scoped token reads only its own number.
    const scoped = await call("GET", `/api/v3/${t.otherSender.phoneNumberId}`, { token: t.scopedToken });
    expect(scoped.status).toBe(403);
  });
});
