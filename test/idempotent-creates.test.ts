// Idempotency-Key on every POST that creates something, with the replay
// rules of the sends (docs/idempotency.md): the same key and body replay the first answer
// (Idempotent-Replayed: true) and create nothing more; the same key with another body is
// IDEMPOTENCY_KEY_REUSED; a key whose first request is still running is
// IDEMPOTENCY_KEY_IN_PROGRESS.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { call, createTestCustomer, type TestCustomer, uniquePhone } from "./factory";

const key = () => `key-${randomBytes(8).toString("hex")}`;

type Case = {
  name: string;
  path: (c: TestCustomer) => Promise<string> | string;
  body: (n: number) => Record<string, unknown>;
  count: (c: TestCustomer) => Promise<number>;
};

const tag = () => randomBytes(4).toString("hex");
/** Bodies are the same for the same n (every test has its own customer). */
const phones = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];

const cases: Case[] = [
  {
    name: "webhook create",
    path: () => "/api/v3/webhooks",
    body: (n) => ({
      webhook: { name: `hook ${n}`, endpointUrl: "https://hooks.example.com/x", events: ["message.status.sent"] },
    }),
    count: (c) => db.webhookDestination.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "contact book create",
    path: () => "/api/v3/contact-books",
    body: (n) => ({ contactBook: { name: `book ${n}` } }),
    count: (c) => db.contactBook.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "contact field create",
    path: () => "/api/v3/contact-fields",
    body: (n) => ({ field: { key: `f${n}`, label: `Field ${n}`, type: "text" } }),
    count: (c) => db.contactField.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "template create",
    path: () => "/api/v3/templates",
    body: (n) => ({
      template: {
        name: `notice_${n}`,
        language: "en_US",
        category: "utility",
        components: [{ type: "BODY", text: "Shipped {{1}}" }],
      },
    }),
    count: (c) => db.template.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "chatbot create",
    path: () => "/api/v3/chatbots",
    body: (n) => ({
      chatbot: {
        name: `bot ${n}`,
        rules: [{ match: { type: "keyword", value: "hours" }, reply: { type: "text", text: "9-17" } }],
      },
    }),
    count: (c) => db.chatbot.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "blacklist add",
    path: () => "/api/v3/blacklist",
    body: (n) => ({ phoneNumber: `+1555${String(n).padStart(7, "0")}`, reason: `r${n}` }),
    count: (c) => db.blacklistEntry.count({ where: { customerId: c.customer.id } }),
  },
  {
    name: "bulk contact upload",
    path: async (c) => {
      const book = await call("POST", "/api/v3/contact-books", {
        token: c.globalToken,
        body: { contactBook: { name: `bulk ${tag()}` } },
      });
      return `/api/v3/contact-books/${book.body.data.uid}/contacts/bulk`;
    },
    body: (n) => ({ contacts: [{ phoneNumber: phones[n], name: `person ${n}` }] }),
    count: (c) => db.contact.count({ where: { customerId: c.customer.id } }),
  },
];

describe.each(cases)("Idempotency-Key on $name", ({ path, body, count }) => {
  it("the same key and body twice create one, the second answer replayed; another body is refused", async () => {
    const c = await createTestCustomer();
    const url = await path(c);
    const k = key();
    const before = await count(c);
    const first = await call("POST", url, { token: c.globalToken, body: body(1), headers: { "Idempotency-Key": k } });
    expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await call("POST", url, { token: c.globalToken, body: body(1), headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(first.status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { metadata: _a, ...firstAnswer } = first.body;
    const { metadata: _b, ...replayed } = again.body;
    expect(replayed).toEqual(firstAnswer);
    expect(await count(c)).toBe(before + 1);

    const other = await call("POST", url, { token: c.globalToken, body: body(2), headers: { "Idempotency-Key": k } });
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await count(c)).toBe(before + 1);

    // Without a key, each request is its own.
    await call("POST", url, { token: c.globalToken, body: body(3) });
    expect(await count(c)).toBe(before + 2);
  });
});

describe("Idempotency-Key on creates: in progress, secrets, tenants", () => {
  it("answers IDEMPOTENCY_KEY_IN_PROGRESS while the first request with the key runs", async () => {
    const c = await createTestCustomer();
    const k = key();
    const body = cases[0]?.body(1) ?? {};
    // A first request that has claimed the key and not answered yet.
    await call("POST", "/api/v3/webhooks", { token: c.globalToken, body, headers: { "Idempotency-Key": k } });
    await db.idempotencyKey.updateMany({
      where: { customerId: c.customer.id, key: k },
      data: { status: null, response: Prisma.DbNull },
    });
    const res = await call("POST", "/api/v3/webhooks", {
      token: c.globalToken,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe("IDEMPOTENCY_KEY_IN_PROGRESS");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await db.webhookDestination.count({ where: { customerId: c.customer.id } })).toBe(1);
  });

  it("a replayed webhook create answers the same signing secret, which is stored encrypted only", async () => {
    const c = await createTestCustomer();
    const k = key();
    const body = cases[0]?.body(1) ?? {};
    const first = await call("POST", "/api/v3/webhooks", {
      token: c.globalToken,
      body,
      headers: { "Idempotency-Key": k },
    });
    const again = await call("POST", "/api/v3/webhooks", {
      token: c.globalToken,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(first.body.signingSecret).toMatch(/^whsec_/);
    expect(again.body.signingSecret).toBe(first.body.signingSecret);
    expect(again.body.data.uid).toBe(first.body.data.uid);
    const stored = await db.idempotencyKey.findUniqueOrThrow({
      where: { customerId_key: { customerId: c.customer.id, key: k } },
    });
    const raw = JSON.stringify(stored.response);
    expect(raw).not.toContain(first.body.signingSecret);
    expect(raw).not.toContain(first.body.data.uid);
  });

  it("keys are per customer: another customer's same key and body create their own", async () => {
    const [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
    const k = key();
    const body = { contactBook: { name: `shared ${tag()}` } };
    const ra = await call("POST", "/api/v3/contact-books", {
      token: a.globalToken,
      body,
      headers: { "Idempotency-Key": k },
    });
    const rb = await call("POST", "/api/v3/contact-books", {
      token: b.globalToken,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(rb.body.data.uid).not.toBe(ra.body.data.uid);
  });
});
