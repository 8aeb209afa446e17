// Scale-out (docs/deployment.md): two API instances (`npm run serve:api`) and two workers
// (`npm run worker`), the compiled production processes, on one PostgreSQL database and one
// Redis. Sends, signed provider callbacks (some posted to both instances, as a provider
// retrying does) and inbound messages go through both instances; the test shows one shared
// rate-limit budget, every webhook event delivered once per destination, every chatbot
// reply sent once (counted at the provider) and the unread counts right.
// Needs the PostgreSQL server and Redis (TEST_REDIS_URL, default db 9 of the local server):
// it runs in `TEST_DB=postgres` (npm test's PostgreSQL step); embedded PGlite is one process
// by design (docs/deployment.md), so vitest.config.ts leaves it out of the PGlite run.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundTextChange, inboundWamid, messagesChange } from "@/lib/domains/provider/simulator-inbound";
import { issueToken } from "@/lib/domains/tokens/service";
import { HELLO_PARAMS } from "@/test/messaging-fixtures";
import { createDestination, waitFor } from "./events-helpers";
import { uniquePhone } from "./factory";
import { type FakeProvider, startFakeProvider } from "./fake-provider";
import { messagingCustomer } from "./messaging-fixtures";
import { buildServerBundle, type ServerProcess, startProcess, stopProcess } from "./server-processes";
import { type Receiver, startReceiver } from "./webhook-receiver";

// vitest.config.ts includes this file only in the PostgreSQL run; run alone, it says why.
if (inject("databaseKind") !== "postgres") {
  throw new Error("the scale-out test needs the PostgreSQL server and Redis: run it with TEST_DB=postgres");
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/9";
const SEND_BUDGET = 10; // RATE_LIMIT_SEND_TOKEN of every instance
const SENDS = 8; // template sends of the main customer (under its token's budget)
const KEYWORD_CONTACTS = 6;
const REPLY = "We are open 9 to 5, Monday to Friday.";
const EVENTS = [
  "conversation.created",
  "message.status.sent",
  "message.status.delivered",
  "message.status.read",
  "message.inbound.text",
];
const START_MS = 120_000;
const SETTLE_MS = 120_000;

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

describe("two API instances and two workers on one PostgreSQL and Redis", () => {
  let provider: FakeProvider;
  let receiver: Receiver;
  let t: Customer;
  const apis: ServerProcess[] = [];
  const workers: ServerProcess[] = [];
  const secrets: Record<string, string> = {};
  const destinations: Record<string, string> = {};

  beforeAll(async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3_000 });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      throw new Error(`the scale-out test needs Redis at ${REDIS_URL} (TEST_REDIS_URL): ${(error as Error).message}`);
    } finally {
      redis.disconnect();
    }
    provider = await startFakeProvider();
    receiver = await startReceiver();
    t = await messagingCustomer({ credit: 1000 });
    for (const name of ["a", "b"]) {
      const { destination, secret } = await createDestination({
        customerId: t.customer.id,
        senderId: t.sender.id,
        url: receiver.url(`/${name}`),
        events: EVENTS,
        timeoutMs: 15_000,
      });
      receiver.route(`/${name}`, secret);
      secrets[name] = secret;
      destinations[name] = destination.id;
    }
    buildServerBundle();
    const env = {
      DATABASE_URL: inject("databaseUrl"),
      REDIS_URL,
      PROVIDER_MODE: "http",
      PROVIDER_BASE_URL: provider.baseUrl,
      PROVIDER_ACCESS_TOKEN: "scale-out-test-token",
      PROVIDER_TIMEOUT_MS: "15000",
      RATE_LIMIT_SEND_TOKEN: String(SEND_BUDGET),
      RATE_LIMIT_WINDOW_SECONDS: "900",
      WORKER_POLL_MS: "2000",
      LOG_LEVEL: "warn",
    };
    // One at a time: a loaded 2-core machine starts four Node processes slowly enough.
    for (const name of ["worker-1", "worker-2"]) {
      workers.push(
        await startProcess(
          name,
          "worker",
          ["--customer", t.customer.id],
          { ...env, WORKER_HEALTH_PORT: "0" },
          START_MS,
        ),
      );
    }
    for (const name of ["api-1", "api-2"])
      apis.push(await startProcess(name, "serve-api", [], { ...env, PORT: "0" }, START_MS));
    // Ready to share budgets: each instance's rate-limit windows count in Redis.
    for (const p of apis) {
      await waitFor(
        async () => (await (await fetch(`${p.base}/api/health`)).json()).rateLimits === "redis",
        START_MS,
        `${p.name} counting in Redis`,
      );
    }
  }, 6 * START_MS);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => stopProcess(p)));
    await receiver?.close();
    await provider?.close();
  }, 60_000);

  /** The i-th request goes to instance i mod 2. */
  const api = (i: number) => apis[i % 2] as ServerProcess;
  const request = async (i: number, method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${api(i).base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the API envelope
    return { status: response.status, body: (await response.json()) as any };
  };
  /** A signed provider callback posted to instance i (as the provider would, over HTTP). */
  const callback = async (i: number, body: string) => {
    const response = await fetch(`${api(i).base}/api/provider/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signProviderBody(body) },
      body,
    });
    expect(response.status).toBe(200);
  };
  const eventCount = (type: string) => db.webhookEvent.count({ where: { customerId: t.customer.id, type } });
  const inbound = (from: string, text: string) =>
    envelopeFor([inboundTextChange(senderOf(t), { from, text, id: inboundWamid() })]);

  it("answers a health check on every process", async () => {
    for (const p of apis) {
      const health = await fetch(`${p.base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: "ok",
        role: "api",
        checks: { database: "ok" },
        rateLimits: "redis",
      });
    }
    for (const p of workers) {
      const health = await fetch(`${p.base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", role: "worker", checks: { database: "ok" } });
    }
  });

  it("shares one send budget per token across both instances (429 after it)", async () => {
    const other = await messagingCustomer();
    const { token } = await issueToken({ customerId: other.customer.id, name: "budget" });
    const statuses: number[] = [];
    for (let i = 0; i < SEND_BUDGET + 4; i++) {
      const sent = await request(i, "POST", "/api/v3/send", token, {
        to: uniquePhone(),
        template: { name: "order_update", language: "en", components: HELLO_PARAMS },
      });
      statuses.push(sent.status);
      if (sent.status === 429) {
        expect(sent.body.error_code).toBe("REQUEST_FAILED");
        expect(sent.body.details).toMatchObject({ policy: "send_token", limit: SEND_BUDGET });
      }
    }
    // Each instance alone would accept SEND_BUDGET; together they accept it once.
    expect(statuses.slice(0, SEND_BUDGET)).toEqual(Array(SEND_BUDGET).fill(200));
    expect(statuses.slice(SEND_BUDGET)).toEqual([429, 429, 429, 429]);
  });

  it(
    "delivers every event once per destination, sends every bot reply once, counts unread right",
    async () => {
      // A keyword chatbot on the sender, created through one instance.
      const bot = await request(0, "POST", "/api/v3/chatbots", t.globalToken, {
        chatbot: {
          name: "Opening hours",
          status: "ACTIVE",
          rules: [{ match: { type: "keyword", value: "hours" }, reply: { type: "text", text: REPLY } }],
        },
      });
      expect(bot.status, JSON.stringify(bot.body)).toBe(201);

      // Template sends through both instances.
      const recipients = Array.from({ length: SENDS }, () => uniquePhone());
      const sent = await Promise.all(
        recipients.map((to, i) =>
          request(i, "POST", "/api/v3/send", t.globalToken, {
            to,
            template: { name: "order_update", language: "en", components: HELLO_PARAMS },
          }),
        ),
      );
      for (const s of sent) expect(s.status, JSON.stringify(s.body)).toBe(200);
      const wamids = sent.map((s) => s.body.data.messageId as string);
      expect(new Set(wamids).size).toBe(SENDS);
      expect(provider.sends.filter((s) => wamids.includes(s.wamid))).toHaveLength(SENDS);

      // Status callbacks, one status at a time (a status only moves forward); every
      // delivered callback reaches both instances, as a provider's retry would.
      const status = (wamid: string, i: number, name: string) =>
        envelopeFor([
          messagesChange(senderOf(t), {
            statuses: [
              {
                id: wamid,
                status: name,
                timestamp: String(Math.floor(Date.now() / 1000)),
                recipient_id: (recipients[i] as string).slice(1),
                pricing: { billable: true, pricing_model: "PMP", category: "utility", type: "regular" },
                conversation: { id: randomBytes(16).toString("hex"), origin: { type: "utility" } },
              },
            ],
          }),
        ]);
      for (const name of ["sent", "delivered", "read"]) {
        await Promise.all(wamids.map((w, i) => callback(i, status(w, i, name))));
        if (name === "delivered") await Promise.all(wamids.map((w, i) => callback(i + 1, status(w, i, name))));
        await waitFor(async () => (await eventCount(`message.status.${name}`)) === SENDS, SETTLE_MS, `${name} events`);
      }

      // Inbound messages through both instances: keyword contacts (each callback posted to
      // both instances) and two contacts whose messages the bot does not answer.
      const keywordContacts = Array.from({ length: KEYWORD_CONTACTS }, () => uniquePhone());
      await Promise.all(
        keywordContacts.map(async (from, i) => {
          const body = inbound(from, i % 2 ? "Hours" : " hours ");
          await Promise.all([callback(i, body), callback(i + 1, body)]);
        }),
      );
      const chatty = uniquePhone();
      const brief = uniquePhone();
      const unanswered: [string, string][] = [
        [chatty, "hello"],
        [chatty, "are you there?"],
        [chatty, "what are your opening hours"],
        [brief, "thanks"],
        [brief, "bye"],
      ];
      await Promise.all(unanswered.map(([from, text], i) => callback(i, inbound(from, text))));
      const inboundCount = KEYWORD_CONTACTS + unanswered.length;
      await waitFor(
        async () => (await eventCount("message.inbound.text")) === inboundCount,
        SETTLE_MS,
        "inbound events",
      );

      // Every bot reply done (the outbox rows settled), then counted at the provider.
      const replies = await waitFor(
        async () => {
          const rows = await db.chatbotReply.findMany({ where: { customerId: t.customer.id } });
          return rows.length === KEYWORD_CONTACTS && rows.every((r) => r.status !== "PENDING") && rows;
        },
        SETTLE_MS,
        "every chatbot reply",
      );
      expect(replies.map((r) => r.status)).toEqual(Array(KEYWORD_CONTACTS).fill("SENT"));
      const botSends = provider.sends.filter((s) => s.payload.text?.body === REPLY);
      expect(botSends.map((s) => digits(s.payload.to)).sort()).toEqual(keywordContacts.map(digits).sort());
      expect(await db.message.count({ where: { customerId: t.customer.id, sendRoute: "chatbot" } })).toBe(
        KEYWORD_CONTACTS,
      );

      // Every event once per destination: one delivery row each, all delivered, and each
      // delivery's webhook-id received exactly once at its destination.
      const expected: Record<string, number> = {
        "conversation.created": SENDS + KEYWORD_CONTACTS + 2,
        "message.status.sent": SENDS,
        "message.status.delivered": SENDS,
        "message.status.read": SENDS,
        "message.inbound.text": inboundCount,
      };
      const events = await waitFor(
        async () => {
          const rows = await db.webhookEvent.findMany({
            where: { customerId: t.customer.id, type: { in: EVENTS } },
            select: { id: true, type: true },
          });
          return rows.length === Object.values(expected).reduce((a, b) => a + b) && rows;
        },
        SETTLE_MS,
        "every event",
      );
      expect(countBy(events.map((e) => e.type))).toEqual(expected);
      for (const name of ["a", "b"]) {
        const destinationId = destinations[name] as string;
        const deliveries = await waitFor(
          async () => {
            const rows = await db.webhookDelivery.findMany({ where: { destinationId } });
            return (
              rows.length === events.length &&
              rows.every((d) => d.status === "SUCCEEDED") &&
              receiver.on(`/${name}`).length >= rows.length &&
              rows
            );
          },
          SETTLE_MS,
          `deliveries to destination ${name}`,
        );
        expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events.map((e) => e.id)));
        const got = receiver.on(`/${name}`);
        expect(got.every((r) => r.verified)).toBe(true);
        expect(got.map((r) => r.webhookId).sort()).toEqual(deliveries.map((d) => d.id).sort());
        expect(new Set(got.map((r) => r.payload.id)).size).toBe(events.length);
      }

      // Unread counts, read through the other instance than most writes went to.
      const unread = async (contact: string, i: number) => {
        const list = await request(
          i,
          "GET",
          `/api/v3/conversations?search=${encodeURIComponent(contact)}`,
          t.globalToken,
        );
        expect(list.status).toBe(200);
        const found = list.body.data.conversations.filter(
          (c: { contactPhoneNumber: string }) => c.contactPhoneNumber === contact,
        );
        expect(found).toHaveLength(1);
        return found[0].unreadCount as number;
      };
      expect(await unread(chatty, 1)).toBe(3);
      expect(await unread(brief, 0)).toBe(2);
      for (const [i, contact] of keywordContacts.entries()) expect(await unread(contact, i)).toBe(1);
      for (const [i, contact] of recipients.entries()) expect(await unread(contact, i)).toBe(0);
    },
    8 * SETTLE_MS,
  );
});

function senderOf(t: Customer) {
  return { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId };
}

const digits = (phone: string) => String(phone).replace(/\D/g, "");

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
