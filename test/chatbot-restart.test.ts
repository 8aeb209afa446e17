// A worker process killed with SIGKILL after inbound messages committed loses no bot reply
// and sends none twice: the outbox rows committed with the inbound, a dead worker's leases
// expire, and a restarted worker sends the rest (docs/chatbots.md "How a reply is sent").
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { postProvider, waitFor } from "./events-helpers";
import { call, uniquePhone } from "./factory";
import { messagingCustomer } from "./messaging-fixtures";
import { buildServerBundle, workerArgs } from "./server-processes";

const root = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];

function spawnWorker(customerId: string): ChildProcess {
  // The compiled worker, as `npm run worker` runs it (test/server-processes.ts workerArgs).
  const child = spawn(process.execPath, workerArgs("--customer", customerId), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      WORKER_POLL_MS: "20",
      WORKER_LEASE_MARGIN_MS: "300",
      PROVIDER_TIMEOUT_MS: "200",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return child;
}

// The compiled bundle, built once when stale, before any worker starts.
beforeAll(() => buildServerBundle(), 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

function inbound(sender: { phoneNumberId: string | null; wabaId: string | null }, from: string, body: string) {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001234", phone_number_id: sender.phoneNumberId },
              contacts: [{ profile: { name: "Kim" }, wa_id: from.slice(1) }],
              messages: [
                {
                  from: from.slice(1),
                  id: `wamid.restart.${randomBytes(8).toString("hex")}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: "text",
                  text: { body },
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

it("sends every reply exactly once after the worker is killed mid-run and restarted", async () => {
  const t = await messagingCustomer();
  const bot = await call("POST", "/api/v3/chatbots", {
    token: t.globalToken,
    body: {
      chatbot: {
        name: "Restart bot",
        status: "ACTIVE",
        rules: [{ match: { type: "any" }, reply: { type: "text", text: "Hi!" } }],
      },
    },
  });
  expect(bot.status).toBe(201);
  const contacts = Array.from({ length: 12 }, () => uniquePhone());
  for (const contact of contacts) expect((await postProvider(inbound(t.sender, contact, "hello"))).status).toBe(200);

  // The first worker applies the callbacks (inbound and outbox commit together), then dies.
  const first = spawnWorker(t.customer.id);
  await waitFor(
    async () => (await db.chatbotReply.count({ where: { customerId: t.customer.id } })) === contacts.length,
    30_000,
    "outbox rows committed with the inbound",
  );
  first.kill("SIGKILL");
  await new Promise((resolve) => (first.exitCode === null ? first.once("exit", resolve) : resolve(null)));

  const second = spawnWorker(t.customer.id);
  const rows = await waitFor(
    async () => {
      const r = await db.chatbotReply.findMany({ where: { customerId: t.customer.id } });
      return r.length === contacts.length && r.every((x) => x.status !== "PENDING") && r;
    },
    40_000,
    "every reply done",
  );
  second.kill("SIGTERM");
  await new Promise((resolve) => (second.exitCode === null ? second.once("exit", resolve) : resolve(null)));

  expect(new Set(rows.map((r) => r.contactPhoneNumber))).toEqual(new Set(contacts));
  // Exactly one send per contact. A send the kill cut off between storing the message and
  // the provider's answer is never resent (the provider may have it): its row says so.
  const sent = await db.message.findMany({ where: { customerId: t.customer.id, sendRoute: "chatbot" } });
  expect(sent.map((m) => m.recipient).sort()).toEqual([...contacts].sort());
  expect(sent.map((m) => m.id).sort()).toEqual(rows.map((r) => r.messageId).sort());
  for (const row of rows.filter((r) => r.status !== "SENT")) expect(row.lastError).toMatch(/^interrupted/);
  expect(rows.filter((r) => r.status === "SENT").length).toBeGreaterThan(contacts.length / 2);
}, 90_000);
