// Webhook destinations through the real router (docs/api/webhooks.md).
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/core/crypto/secret-box";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { EVENT_KEYS } from "./catalog";

const PUBLIC_FIELDS = [
  "createdAt",
  "disabledAt",
  "disabledReason",
  "endpointUrl",
  "events",
  "hasVerificationToken",
  "health",
  "maxDeliveriesPerSecond",
  "name",
  "phoneNumber",
  "phoneNumberId",
  "previousSecretExpiresAt",
  "retryEnabled",
  "retryMaxAttempts",
  "secretRotatedAt",
  "status",
  "timeoutMs",
  "uid",
  "updatedAt",
  "verificationHeaderKey",
  "webhookUid",
].sort();

const valid = (over: Record<string, unknown> = {}) => ({
  name: "Order updates",
  endpointUrl: "https://hooks.example.com/switchboard",
  events: ["message.status.delivered", "message.inbound.text"],
  ...over,
});

const create = (token: string, webhook: unknown, extra: Record<string, unknown> = {}, version = "v3") =>
  call("POST", `/api/${version}/webhooks`, { token, body: { webhook, ...extra } });

const update = (token: string, uid: string, webhook: unknown, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/webhooks/${uid}`, { token, body: { webhook, ...extra } });

/** Runs fn with WEBHOOK_ALLOW_PRIVATE_URLS=false (production rules), then restores it. */
async function strictUrls<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";
  resetEnvCache();
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = before;
    resetEnvCache();
  }
}

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

let a: TestCustomer;
let b: TestCustomer;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
});

afterEach(() => {
  expect(process.env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe("true");
});

describe("event catalog", () => {
  it("lists every event key in groups, the same on v2 and v3", async () => {
    const v2 = await call("GET", "/api/v2/webhooks/events", { token: a.globalToken });
    const v3 = await call("GET", "/api/v3/webhooks/events", { token: a.globalToken });
    expect(v2.status).toBe(200);
    expect(v2.body.data).toEqual(v3.body.data);
    const { groups, eventKeys } = v2.body.data;
    const expected = [
      ...["accepted", "sent", "delivered", "read", "failed"].map((s) => `message.status.${s}`),
      ...[
        "text",
        "image",
        "audio",
        "video",
        "document",
        "sticker",
        "location",
        "contacts",
        "interactive",
        "button",
        "reaction",
      ].map((t) => `message.inbound.${t}`),
      "template.status_update",
      "template.category_update",
      "template.quality_update",
      "conversation.created",
      "conversation.closed",
      "conversation.handoff",
      "conversation.assigned",
      "conversation.labels_changed",
      "conversation.csat_received",
      "conversation.sla_breached",
      "automation.triggered",
      "broadcast.started",
      "broadcast.paused",
      "broadcast.completed",
      "billing.balance.low",
      "webhook.endpoint.disabled",
      "webhook.delivery.exhausted",
    ];
    expect([...eventKeys].sort()).toEqual([...expected].sort());
    expect([...EVENT_KEYS].sort()).toEqual([...expected].sort());
    const listed = groups.flatMap((g: { events: { key: string; subscribable: boolean }[] }) => g.events);
    // Every key to subscribe to, and webhook.test, which a destination receives only as a test.
    expect(
      listed
        .filter((e: { subscribable: boolean }) => e.subscribable)
        .map((e: { key: string }) => e.key)
        .sort(),
    ).toEqual([...expected].sort());
    expect(listed.filter((e: { subscribable: boolean }) => !e.subscribable).map((e: { key: string }) => e.key)).toEqual(
      ["webhook.test"],
    );
    for (const g of groups)
      expect(g).toEqual(expect.objectContaining({ key: expect.any(String), name: expect.any(String) }));
  });

  it("needs the webhooks feature", async () => {
    const starter = await createTestCustomer({ plan: "starter" });
    const res = await call("GET", "/api/v2/webhooks/events", { token: starter.globalToken });
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe("FEATURE_NOT_AVAILABLE");
  });
});

describe("create", () => {
  it("returns the destination with its public fields and the signing secret once, top-level", async () => {
    const res = await create(a.globalToken, valid());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Webhook created" });
    const { data, signingSecret } = res.body;
    expect(Object.keys(data).sort()).toEqual(PUBLIC_FIELDS);
    expect(data).toMatchObject({
      name: "Order updates",
      endpointUrl: "https://hooks.example.com/switchboard",
      phoneNumber: a.sender.phoneNumber,
      phoneNumberId: a.sender.phoneNumberId,
      events: ["message.status.delivered", "message.inbound.text"],
      status: "ACTIVE",
      timeoutMs: 10_000,
      retryEnabled: true,
      retryMaxAttempts: 5,
      verificationHeaderKey: null,
      hasVerificationToken: false,
    });
    expect(data.uid).toBe(data.webhookUid);
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(signingSecret.slice(6), "base64")).toHaveLength(32);
    expect(JSON.stringify(data)).not.toContain(signingSecret.slice(6));
    expect(res.headers.get("x-service-phone-number-id")).toBe(a.sender.phoneNumberId);

    // At rest: only the encrypted form, which decrypts to what the customer was shown.
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: data.webhookUid } });
    expect(row.signingSecretEnc).not.toContain(signingSecret.slice(6));
    expect(decryptSecret(row.signingSecretEnc)).toBe(signingSecret);
    expect(row).toMatchObject({ customerId: a.customer.id, senderId: a.sender.id });
  });

  it("stores every supplied setting and encrypts the verification token", async () => {
    const res = await create(
      a.globalToken,
      valid({
        status: "INACTIVE",
        timeoutMs: 30_000,
        retryEnabled: false,
        retryMaxAttempts: 0,
        verificationHeaderKey: "X-Switchboard-Token",
        verificationToken: "vt_plain_value_1234",
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "INACTIVE",
      timeoutMs: 30_000,
      retryEnabled: false,
      retryMaxAttempts: 0,
      verificationHeaderKey: "X-Switchboard-Token",
      hasVerificationToken: true,
    });
    expect(JSON.stringify(res.body)).not.toContain("vt_plain_value_1234");
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: res.body.data.webhookUid } });
    expect(row.verificationTokenEnc).not.toContain("vt_plain_value_1234");
    expect(decryptSecret(row.verificationTokenEnc ?? "")).toBe("vt_plain_value_1234");
  });

  it("gives each destination its own secret", async () => {
    const [x, y] = await Promise.all([create(a.globalToken, valid()), create(a.globalToken, valid())]);
    expect(x.body.signingSecret).not.toBe(y.body.signingSecret);
  });

  it("accepts the token in the JSON body", async () => {
    const res = await call("POST", "/api/v2/webhooks", { body: { authToken: a.globalToken, webhook: valid() } });
    expect(res.status).toBe(200);
    expect(res.body.data.phoneNumber).toBe(a.sender.phoneNumber);
  });

  it("creates on an explicit sender, and a number-scoped token on its own sender", async () => {
    const other = await create(a.globalToken, valid(), { senderId: a.otherSender.phoneNumber });
    expect(other.body.data.phoneNumber).toBe(a.otherSender.phoneNumber);
    const scoped = await create(a.scopedToken, valid());
    expect(scoped.status).toBe(200);
    expect(scoped.body.data.phoneNumber).toBe(a.sender.phoneNumber);
    const refused = await create(a.scopedToken, valid(), { senderId: a.otherSender.phoneNumber });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
  });
});

describe("create: every validation error", () => {
  const cases: [string, unknown, string][] = [
    ["missing webhook", undefined, "webhook"],
    ["empty name", valid({ name: "" }), "name"],
    ["blank name", valid({ name: "   " }), "name"],
    ["name too long", valid({ name: "x".repeat(101) }), "name"],
    ["name not a string", valid({ name: 42 }), "name"],
    ["name with a NUL byte", valid({ name: "a\u0000b" }), "name"],
    ["endpointUrl with a control character", valid({ endpointUrl: "https://h.example.com/\u0000" }), "endpointUrl"],
    ["missing name", { endpointUrl: "https://h.example.com/", events: ["message.status.read"] }, "name"],
    ["missing endpointUrl", { name: "n", events: ["message.status.read"] }, "endpointUrl"],
    ["empty events", valid({ events: [] }), "events"],
    ["missing events", { name: "n", endpointUrl: "https://h.example.com/" }, "events"],
    ["events not an array", valid({ events: "message.status.read" }), "events"],
    ["duplicate events", valid({ events: ["message.status.read", "message.status.read"] }), "events"],
    ["invalid status", valid({ status: "PAUSED" }), "status"],
    ["lower-case status", valid({ status: "deleted" }), "status"],
    ["timeout too small", valid({ timeoutMs: 999 }), "timeoutMs"],
    ["timeout too large", valid({ timeoutMs: 30_001 }), "timeoutMs"],
    ["timeout not an integer", valid({ timeoutMs: 1500.5 }), "timeoutMs"],
    ["timeout as a string", valid({ timeoutMs: "5000" }), "timeoutMs"],
    ["retryEnabled not boolean", valid({ retryEnabled: "yes" }), "retryEnabled"],
    ["retryMaxAttempts negative", valid({ retryMaxAttempts: -1 }), "retryMaxAttempts"],
    ["retryMaxAttempts too large", valid({ retryMaxAttempts: 11 }), "retryMaxAttempts"],
    ["retryMaxAttempts fractional", valid({ retryMaxAttempts: 2.5 }), "retryMaxAttempts"],
    ["header with a space", valid({ verificationHeaderKey: "X Token" }), "verificationHeaderKey"],
    ["header with a colon", valid({ verificationHeaderKey: "X-Token:" }), "verificationHeaderKey"],
    ["empty header", valid({ verificationHeaderKey: "" }), "verificationHeaderKey"],
    ["reserved header content-type", valid({ verificationHeaderKey: "Content-Type" }), "verificationHeaderKey"],
    ["reserved header host", valid({ verificationHeaderKey: "host" }), "verificationHeaderKey"],
    ["reserved header authorization", valid({ verificationHeaderKey: "Authorization" }), "verificationHeaderKey"],
    ["reserved header webhook-*", valid({ verificationHeaderKey: "webhook-signature" }), "verificationHeaderKey"],
    ["token without header", valid({ verificationToken: "abc" }), "verificationHeaderKey"],
    [
      "token too long",
      valid({ verificationHeaderKey: "X-Token", verificationToken: "t".repeat(513) }),
      "verificationToken",
    ],
    [
      "token with a newline",
      valid({ verificationHeaderKey: "X-Token", verificationToken: "a\r\nInjected: 1" }),
      "verificationToken",
    ],
    ["unknown field", valid({ endpointURL: "https://typo.example.com/" }), "webhook"],
  ];

  it.each(cases)("%s -> VALIDATION_FAILED", async (_label, webhook, field) => {
    const res = await create(a.globalToken, webhook);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error_code: "VALIDATION_FAILED" });
    expect(res.body.message).toContain(field);
    expect(res.body.details.fields.some((f: { path: string }) => f.path.includes(field))).toBe(true);
  });

  it("names the unsupported event in the message", async () => {
    const res = await create(a.globalToken, valid({ events: ["message.status.read", "message.foo"] }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain('Unsupported event "message.foo"');
    expect(res.body.message).toContain("/webhooks/events");
  });

  it("creates nothing when validation fails", async () => {
    const fresh = await createTestCustomer();
    await create(fresh.globalToken, valid({ events: [] }));
    await create(fresh.globalToken, valid({ endpointUrl: "nope" }));
    expect(await db.webhookDestination.count({ where: { customerId: fresh.customer.id } })).toBe(0);
  });

  it.each([
    "not a url",
    "ftp://files.example.com/in",
    "https://user:pass@hooks.example.com/",
    "//no-scheme.example.com",
  ])("endpointUrl %s -> WEBHOOK_ENDPOINT_INVALID", async (endpointUrl) => {
    const res = await create(a.globalToken, valid({ endpointUrl }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
  });

  it("plain http -> WEBHOOK_ENDPOINT_REQUIRES_HTTPS when private URLs are not allowed", async () => {
    const res = await strictUrls(() => create(a.globalToken, valid({ endpointUrl: "http://8.8.8.8/in" })));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("WEBHOOK_ENDPOINT_REQUIRES_HTTPS");
    // Development setting: http to a local receiver is fine.
    const dev = await create(a.globalToken, valid({ endpointUrl: "http://127.0.0.1:4000/in" }));
    expect(dev.status).toBe(200);
  });

  it.each([
    "https://127.0.0.1/in",
    "https://10.0.0.8/in",
    "https://192.168.1.20:8443/in",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.1.1/in",
    "https://[::1]/in",
    "https://[fd00::5]/in",
    "https://[::ffff:10.0.0.1]/in",
    "https://localhost/in",
  ])("%s is refused when private URLs are not allowed", async (endpointUrl) => {
    const res = await strictUrls(() => create(a.globalToken, valid({ endpointUrl })));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
    expect(res.body.message).toMatch(/public addresses only/);
  });

  it.each([
    ["https://8.8.8.8:22/in", 22],
    ["https://8.8.8.8:6379/in", 6379],
    ["https://hooks.example.com:5432/in", 5432],
    ["http://127.0.0.1:27017/in", 27017],
    ["http://127.0.0.1/in", 80],
  ])(
    "%s: a port outside 443, 8443 and 1024-65535 (minus database and cache ports) is refused",
    async (endpointUrl, port) => {
      const res = await create(a.globalToken, valid({ endpointUrl }));
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
      expect(res.body.message).toContain(`port ${port} is not allowed`);
      expect(res.body.details).toMatchObject({ field: "webhook.endpointUrl", reason: "forbidden_port" });
      const uid = (await create(a.globalToken, valid())).body.data.webhookUid;
      const patched = await update(a.globalToken, uid, { endpointUrl });
      expect(patched.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
    },
  );

  it("WEBHOOK_ALLOWED_PORTS replaces the default port rule", async () => {
    process.env.WEBHOOK_ALLOWED_PORTS = "443, 9000-9100";
    resetEnvCache();
    try {
      expect((await create(a.globalToken, valid({ endpointUrl: "https://8.8.8.8:9050/in" }))).status).toBe(200);
      const refused = await create(a.globalToken, valid({ endpointUrl: "https://8.8.8.8:8443/in" }));
      expect(refused.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
    } finally {
      delete process.env.WEBHOOK_ALLOWED_PORTS;
      resetEnvCache();
    }
  });

  it("a public https address is accepted under production rules", async () => {
    const res = await strictUrls(() => create(a.globalToken, valid({ endpointUrl: "https://8.8.8.8/in" })));
    expect(res.status).toBe(200);
    expect(res.body.data.endpointUrl).toBe("https://8.8.8.8/in");
  });

  it("WHATSAPP_SETUP_INCOMPLETE for a sender without a provider phone number id", async () => {
    const res = await create(a.globalToken, valid(), { senderId: a.incompleteSender.phoneNumber });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("WHATSAPP_SETUP_INCOMPLETE");
  });

  it("SENDER_NOT_FOUND for a number the customer does not own", async () => {
    const res = await create(a.globalToken, valid(), { senderId: b.sender.phoneNumber });
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe("SENDER_NOT_FOUND");
  });

  it("FEATURE_NOT_AVAILABLE for a plan without webhooks", async () => {
    const starter = await createTestCustomer({ plan: "starter" });
    for (const res of [
      await create(starter.globalToken, valid()),
      await call("GET", "/api/v2/webhooks", { token: starter.globalToken }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("FEATURE_NOT_AVAILABLE");
    }
  });

  it("UNSUPPORTED_CONTENT_TYPE without application/json, malformed JSON is VALIDATION_FAILED", async () => {
    const rawBody = JSON.stringify({ webhook: valid() });
    const res = await call("POST", "/api/v2/webhooks", {
      token: a.globalToken,
      rawBody,
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body.error_code).toBe("UNSUPPORTED_CONTENT_TYPE");
    const form = await call("POST", "/api/v2/webhooks", {
      token: a.globalToken,
      rawBody: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const malformed = await call("POST", "/api/v2/webhooks", {
      token: a.globalToken,
      rawBody: '{"webhook": {',
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("VALIDATION_FAILED");
  });
});

describe("get, list and secrets", () => {
  it("never returns a secret from create's data, list, get or update", async () => {
    const created = await create(
      a.globalToken,
      valid({ verificationHeaderKey: "X-Verify", verificationToken: "verification_plain_987" }),
    );
    const uid = created.body.data.webhookUid;
    const secret: string = created.body.signingSecret;
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    const responses = [
      { body: { data: created.body.data } },
      await call("GET", `/api/v2/webhooks/${uid}`, { token: a.globalToken }),
      await call("GET", "/api/v2/webhooks", { token: a.globalToken, query: { limit: 100 } }),
      await update(a.globalToken, uid, { name: "Renamed" }),
      await call("GET", `/api/v3/webhooks/${uid}/deliveries`, { token: a.globalToken }),
    ];
    for (const res of responses) {
      const text = JSON.stringify(res.body);
      for (const needle of [
        secret,
        secret.slice(6),
        "verification_plain_987",
        row.signingSecretEnc,
        row.verificationTokenEnc ?? "-",
      ]) {
        expect(text).not.toContain(needle);
      }
      expect(text).not.toMatch(/"(signingSecret|signingSecretEnc|verificationToken|verificationTokenEnc|whsec_[^"]*)"/);
    }
  });

  it("gets a destination by uid with the spec fields", async () => {
    const created = await create(a.globalToken, valid({ name: "Readable" }));
    const uid = created.body.data.webhookUid;
    const res = await call("GET", `/api/v2/webhooks/${uid}`, { token: a.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created.body.data);
    for (const bad of ["does_not_exist", "%00", "a%00b", "x".repeat(300), "..%2F..%2Fetc"]) {
      const missing = await call("GET", `/api/v2/webhooks/${bad}`, { token: a.globalToken });
      expect(missing.status).toBe(404);
      expect(missing.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    }
  });

  it("lists with status, event, senderId filters and clamped pagination", async () => {
    const c = await createTestCustomer();
    const mk = async (over: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      (await create(c.globalToken, valid(over), extra)).body.data.webhookUid as string;
    const w1 = await mk({ name: "w1", events: ["message.status.delivered"] });
    const w2 = await mk({
      name: "w2",
      status: "INACTIVE",
      events: ["message.status.delivered", "message.status.read"],
    });
    const w3 = await mk({ name: "w3", events: ["message.inbound.text"] });
    const w4 = await mk({ name: "w4", events: ["message.status.delivered"] }, { senderId: c.otherSender.phoneNumber });
    const list = async (query: Record<string, string | number> = {}, token = c.globalToken) => {
      const res = await call("GET", "/api/v2/webhooks", { token, query });
      expect(res.status).toBe(200);
      expect(res.body.data.items).toEqual(res.body.data.webhooks);
      return res.body.data;
    };
    const uids = (d: { webhooks: { webhookUid: string }[] }) => d.webhooks.map((w) => w.webhookUid);

    const all = await list();
    expect(uids(all)).toEqual([w3, w2, w1]); // newest first, default sender only
    expect(all.pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1, count: 3, hasMore: false });
    expect(uids(await list({ status: "INACTIVE" }))).toEqual([w2]);
    expect(uids(await list({ status: "ACTIVE" }))).toEqual([w3, w1]);
    expect(uids(await list({ event: "message.status.delivered" }))).toEqual([w2, w1]);
    expect(uids(await list({ event: "message.status.delivered", status: "ACTIVE" }))).toEqual([w1]);
    expect(uids(await list({ event: "template.status_update" }))).toEqual([]);
    expect(uids(await list({ senderId: c.otherSender.phoneNumber }))).toEqual([w4]);
    expect(uids(await list({}, c.scopedToken))).toEqual([w3, w2, w1]);

    const p1 = await list({ limit: 2 });
    expect(uids(p1)).toEqual([w3, w2]);
    expect(p1.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, count: 2, hasMore: true });
    const p2 = await list({ limit: 2, page: 2 });
    expect(uids(p2)).toEqual([w1]);
    expect(p2.pagination).toMatchObject({ page: 2, count: 1, hasMore: false });
    const beyond = await list({ limit: 2, page: 9 });
    expect(beyond.webhooks).toEqual([]);
    expect(beyond.pagination).toMatchObject({ page: 9, count: 0, total: 3, hasMore: false });
    expect((await list({ limit: 1000 })).pagination.limit).toBe(100);
    expect((await list({ limit: 0 })).pagination.limit).toBe(1);
    expect((await list({ page: 0 })).pagination.page).toBe(1);
    expect((await list({ page: -4 })).pagination.page).toBe(1);
    expect((await list({ page: "abc", limit: "xyz" })).pagination).toMatchObject({ page: 1, limit: 50 });

    const badEvent = await call("GET", "/api/v2/webhooks", { token: c.globalToken, query: { event: "message.nope" } });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error_code).toBe("VALIDATION_FAILED");
    expect(badEvent.body.message).toContain('"message.nope"');
    const badStatus = await call("GET", "/api/v2/webhooks", { token: c.globalToken, query: { status: "GONE" } });
    expect(badStatus.body.error_code).toBe("VALIDATION_FAILED");

    const empty = await createTestCustomer();
    expect((await list({}, empty.globalToken)).webhooks).toEqual([]);
  });

  it("v2 and v3 give the same data", async () => {
    const created = await create(a.globalToken, valid(), {}, "v2");
    const uid = created.body.data.webhookUid;
    for (const path of [`/webhooks/${uid}`, "/webhooks?limit=5", `/webhooks/${uid}/deliveries`, "/webhooks/events"]) {
      const [v2, v3] = await Promise.all([
        call("GET", `/api/v2${path}`, { token: a.globalToken }),
        call("GET", `/api/v3${path}`, { token: a.globalToken }),
      ]);
      expect(v2.status).toBe(200);
      expect(v2.body.data).toEqual(v3.body.data);
      expect(v2.body.metadata.apiVersion).toBe("v2");
      expect(v3.body.metadata.apiVersion).toBe("v3");
      expect(v3.body.metadata.processingTimeMs).toEqual(expect.any(Number));
    }
  });

  it("has no delete: DELETE, PUT and PATCH give 405 with Allow", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.webhookUid;
    for (const method of ["DELETE", "PUT", "PATCH"]) {
      for (const version of ["v2", "v3"]) {
        const res = await call(method, `/api/${version}/webhooks/${uid}`, { token: a.globalToken });
        expect(res.status).toBe(405);
        expect(res.body.error_code).toBe("REQUEST_FAILED");
        expect(res.headers.get("allow")?.split(/,\s*/).sort()).toEqual(["GET", "POST"]);
      }
    }
    const collection = await call("DELETE", "/api/v2/webhooks", { token: a.globalToken });
    expect(collection.status).toBe(405);
    expect(await db.webhookDestination.count({ where: { id: uid } })).toBe(1);
  });
});

describe("update", () => {
  it("updates fields, keeps the signing secret, and manages the verification token", async () => {
    const created = await create(a.globalToken, valid());
    const uid = created.body.data.webhookUid;
    const before = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });

    const res = await update(a.globalToken, uid, {
      name: "Renamed",
      endpointUrl: "https://other.example.com/in",
      events: ["template.status_update"],
      timeoutMs: 1000,
      retryEnabled: false,
      retryMaxAttempts: 10,
      verificationHeaderKey: "X-Hook-Token",
      verificationToken: "fresh_token_1",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Webhook updated" });
    expect(Object.keys(res.body.data).sort()).toEqual(PUBLIC_FIELDS);
    expect(res.body.data).toMatchObject({
      webhookUid: uid,
      name: "Renamed",
      endpointUrl: "https://other.example.com/in",
      events: ["template.status_update"],
      status: "ACTIVE",
      timeoutMs: 1000,
      retryEnabled: false,
      retryMaxAttempts: 10,
      verificationHeaderKey: "X-Hook-Token",
      hasVerificationToken: true,
    });
    expect(res.body.signingSecret).toBeUndefined();

    const after = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(decryptSecret(after.signingSecretEnc)).toBe(created.body.signingSecret);
    expect(after.signingSecretEnc).toBe(before.signingSecretEnc);
    expect(decryptSecret(after.verificationTokenEnc ?? "")).toBe("fresh_token_1");

    const cleared = await update(a.globalToken, uid, { clearVerificationToken: true });
    expect(cleared.body.data).toMatchObject({ hasVerificationToken: false, verificationHeaderKey: "X-Hook-Token" });
    expect((await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } })).verificationTokenEnc).toBeNull();

    const statusOnly = await update(a.globalToken, uid, { status: "INACTIVE" });
    expect(statusOnly.body.data).toMatchObject({
      status: "INACTIVE",
      retryEnabled: false,
      hasVerificationToken: false,
    });
    const back = await update(a.globalToken, uid, { status: "ACTIVE" });
    expect(back.body.data.status).toBe("ACTIVE");
    const final = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(decryptSecret(final.signingSecretEnc)).toBe(created.body.signingSecret);
    expect(final.inactiveReason).toBeNull();
  });

  const bad: [string, unknown, string][] = [
    ["no webhook object", undefined, "At least one"],
    ["empty webhook object", {}, "At least one"],
    ["only clearVerificationToken: false", { clearVerificationToken: false }, "At least one"],
    ["token and clear together", { verificationToken: "x", clearVerificationToken: true }, "cannot be sent together"],
    ["invalid status", { status: "DELETED" }, "status"],
    ["empty events", { events: [] }, "events"],
    ["timeout out of range", { timeoutMs: 60_000 }, "timeoutMs"],
    ["retry out of range", { retryMaxAttempts: 99 }, "retryMaxAttempts"],
    ["invalid header", { verificationHeaderKey: "bad header" }, "verificationHeaderKey"],
    ["name too long", { name: "n".repeat(101) }, "name"],
    ["signingSecret is not updatable", { signingSecret: "whsec_x" }, "signingSecret"],
  ];
  it.each(bad)("%s -> VALIDATION_FAILED, nothing changes", async (_label, webhook, text) => {
    const created = await create(a.globalToken, valid());
    const uid = created.body.data.webhookUid;
    const res = await update(a.globalToken, uid, webhook);
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain(text);
    const now = await call("GET", `/api/v2/webhooks/${uid}`, { token: a.globalToken });
    expect(now.body.data).toEqual(created.body.data);
  });

  it("names the unsupported event", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.webhookUid;
    const res = await update(a.globalToken, uid, { events: ["message.status.read", "order.created"] });
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain('Unsupported event "order.created"');
  });

  it("refuses to drop the header name while a token is stored (and rolls back)", async () => {
    const created = await create(a.globalToken, valid({ verificationHeaderKey: "X-T", verificationToken: "tok" }));
    const uid = created.body.data.webhookUid;
    const res = await update(a.globalToken, uid, { verificationHeaderKey: null, name: "changed" });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    const now = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(now).toMatchObject({ name: "Order updates", verificationHeaderKey: "X-T" });
    const both = await update(a.globalToken, uid, { verificationHeaderKey: null, clearVerificationToken: true });
    expect(both.body.data).toMatchObject({ verificationHeaderKey: null, hasVerificationToken: false });
  });

  it("re-validates the endpoint URL through the SSRF guard", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.webhookUid;
    const invalid = await update(a.globalToken, uid, { endpointUrl: "mailto:ops@example.com" });
    expect(invalid.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
    const http = await strictUrls(() => update(a.globalToken, uid, { endpointUrl: "http://8.8.8.8/in" }));
    expect(http.body.error_code).toBe("WEBHOOK_ENDPOINT_REQUIRES_HTTPS");
    const internal = await strictUrls(() => update(a.globalToken, uid, { endpointUrl: "https://10.1.1.1/in" }));
    expect(internal.body.error_code).toBe("WEBHOOK_ENDPOINT_INVALID");
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(row.endpointUrl).toBe("https://hooks.example.com/switchboard");
  });

  it("UNSUPPORTED_CONTENT_TYPE and WHATSAPP_SETUP_INCOMPLETE", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.webhookUid;
    const res = await call("POST", `/api/v2/webhooks/${uid}`, {
      token: a.globalToken,
      rawBody: JSON.stringify({ webhook: { name: "x" } }),
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body.error_code).toBe("UNSUPPORTED_CONTENT_TYPE");
    const incomplete = await update(a.globalToken, uid, { name: "x" }, { senderId: a.incompleteSender.phoneNumber });
    expect(incomplete.body.error_code).toBe("WHATSAPP_SETUP_INCOMPLETE");
  });
});

describe("tenant isolation", () => {
  it("another customer's webhook uid is WEBHOOK_NOT_FOUND everywhere", async () => {
    const created = await create(a.globalToken, valid());
    const uid = created.body.data.webhookUid;
    const delivery = await call("POST", `/api/v2/webhooks/${uid}/test`, { token: a.globalToken });
    const deliveryId = delivery.body.data.deliveryId;
    const attempts = [
      await call("GET", `/api/v2/webhooks/${uid}`, { token: b.globalToken }),
      await update(b.globalToken, uid, { name: "hijacked", status: "INACTIVE" }),
      await call("GET", `/api/v2/webhooks/${uid}/deliveries`, { token: b.globalToken }),
      await call("POST", `/api/v2/webhooks/${uid}/deliveries/${deliveryId}/redeliver`, { token: b.globalToken }),
      await call("POST", `/api/v2/webhooks/${uid}/test`, { token: b.globalToken }),
      await call("GET", `/api/v2/webhooks/${uid}`, { token: b.scopedToken }),
      await update(b.scopedToken, uid, { name: "hijacked" }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    }
    const list = await call("GET", "/api/v2/webhooks", { token: b.globalToken, query: { limit: 100 } });
    expect(list.body.data.webhooks.map((w: { webhookUid: string }) => w.webhookUid)).not.toContain(uid);
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(row).toMatchObject({ name: "Order updates", status: "ACTIVE" });
    expect(await db.webhookDelivery.count({ where: { destinationId: uid } })).toBe(1);
  });

  it("a webhook of the customer's other sender: scoped token gets NOT_FOUND or TOKEN_SCOPE_NOT_ALLOWED", async () => {
    const created = await create(a.globalToken, valid(), { senderId: a.otherSender.phoneNumber });
    const uid = created.body.data.webhookUid;
    const other = a.otherSender.phoneNumber;

    // The scoped token resolves to its own sender, which does not own this webhook.
    for (const res of [
      await call("GET", `/api/v2/webhooks/${uid}`, { token: a.scopedToken }),
      await update(a.scopedToken, uid, { name: "x" }),
      await call("GET", `/api/v2/webhooks/${uid}/deliveries`, { token: a.scopedToken }),
      await call("POST", `/api/v2/webhooks/${uid}/test`, { token: a.scopedToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    }
    // Naming the other sender explicitly is a scope violation.
    for (const res of [
      await call("GET", `/api/v2/webhooks/${uid}`, { token: a.scopedToken, query: { senderId: other } }),
      await update(a.scopedToken, uid, { name: "x" }, { senderId: other }),
      await call("GET", "/api/v2/webhooks", { token: a.scopedToken, query: { senderId: other } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    }
    // A global token reaches it only through that sender.
    const viaDefault = await call("GET", `/api/v2/webhooks/${uid}`, { token: a.globalToken });
    expect(viaDefault.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    const viaSender = await call("GET", `/api/v2/webhooks/${uid}`, {
      token: a.globalToken,
      query: { senderId: other },
    });
    expect(viaSender.status).toBe(200);
    const updated = await update(a.globalToken, uid, { name: "ok" }, { senderId: other });
    expect(updated.body.data.name).toBe("ok");
  });
});
