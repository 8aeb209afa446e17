// Time triggers survive a crash (docs/automation.md "Time triggers"): 500 idle and unanswered
// timers come due over 10 s while a worker process (`npm run worker`, the compiled bundle)
// runs them; it is killed with SIGKILL part-way and a new one started. Each timer runs its
// rule exactly once: none lost (the timers are rows of ScheduledJob, which the worker writes
// from the inbound jobs committed with the messages), none repeated (the run key of
// AutomationRun, in the transaction of the rule's actions; the dead worker's leases end and
// its jobs are taken again).
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { notifyStatement } from "@/lib/db/wakeups";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "@/lib/domains/provider/simulator-inbound";
import { drainCallbacks, postSigned } from "./conversation-fixtures";
import { waitFor } from "./events-helpers";
import { call, createTestCustomer, uniquePhone } from "./factory";
import { buildServerBundle, type ServerProcess, startProcess, stopProcess } from "./server-processes";

const START_MS = 120_000;
const CONTACTS = 250;
const TIMERS = CONTACTS * 2;
const processes: ServerProcess[] = [];

beforeAll(() => buildServerBundle(), START_MS);

afterAll(async () => {
  await Promise.all(processes.map((p) => stopProcess(p)));
}, 60_000);

const startWorker = async (name: string, customerId: string) => {
  const worker = await startProcess(
    name,
    "worker",
    ["--customer", customerId],
    {
      DATABASE_URL: inject("databaseUrl"),
      WORKER_HEALTH_PORT: "0",
      // The automation lease is the longest send (docs/automation.md "Time triggers"): 4 x 500 + 300 ms here.
      PROVIDER_TIMEOUT_MS: "500",
      WORKER_LEASE_MARGIN_MS: "300",
      LOG_LEVEL: "silent",
    },
    START_MS,
  );
  processes.push(worker);
  return worker;
};

it("500 timers due in the next 10 s, the worker killed part-way and restarted: each rule runs once per timer", async () => {
  const t = await createTestCustomer();
  const rule = async (name: string, event: string) => {
    const res = await call("POST", "/api/v3/automations", {
      token: t.globalToken,
      body: { rule: { name, trigger: { event, minutes: 30 }, actions: [{ type: "note", text: name }] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.ruleUid as string;
  };
  const idle = await rule("idle", "conversation.idle");
  const unanswered = await rule("unanswered", "conversation.unanswered");

  // 250 contacts write (signed callbacks through the real ingest): one timer per rule each.
  const sender = {
    phoneNumberId: t.sender.phoneNumberId ?? "",
    phoneNumber: t.sender.phoneNumber,
    wabaId: t.sender.wabaId,
  };
  const contacts = Array.from({ length: CONTACTS }, () => uniquePhone());
  for (let i = 0; i < CONTACTS; i += 50) {
    const changes = contacts.slice(i, i + 50).map((from) => inboundTextChange(sender, { from, text: "anyone?" }));
    expect(await postSigned(envelopeFor(changes))).toBe(200);
  }
  await drainCallbacks();
  // The worker makes the timers of the messages the callbacks staged (docs/automation.md "Where rules run").
  const first = await startWorker("worker 1", t.customer.id);
  const pendingTimers = () =>
    db.scheduledJob.findMany({
      where: { customerId: t.customer.id, kind: "automation.time", status: "PENDING" },
      select: { id: true },
      orderBy: { id: "asc" },
    });
  await waitFor(async () => (await pendingTimers()).length === TIMERS, 60_000, "the staged messages' timers written");
  const timers = await pendingTimers();
  expect(timers).toHaveLength(TIMERS);
  // Thirty minutes pass but for the last 10 s: the timers come due one every 20 ms from now.
  const now = Date.now();
  await db.$executeRawUnsafe(
    `UPDATE "ScheduledJob" AS j SET "dueAt" = t.due
       FROM unnest($1::text[], $2::timestamp(3)[]) AS t(id, due) WHERE j.id = t.id`,
    timers.map((j) => j.id),
    timers.map((_, i) => new Date(now + 200 + i * 20).toISOString()),
  );
  await db.$executeRaw(notifyStatement("jobs"));

  const runs = () => db.automationRun.count({ where: { customerId: t.customer.id } });
  const before = await waitFor(
    async () => {
      const n = await runs();
      return n >= TIMERS / 4 && n;
    },
    60_000,
    "a quarter of the timers run",
  );
  first.child.kill("SIGKILL");
  await new Promise((resolve) => (first.child.exitCode === null ? first.child.once("exit", resolve) : resolve(null)));
  const atKill = await runs();
  expect(atKill, "the kill came part-way").toBeLessThan(TIMERS);
  expect(atKill).toBeGreaterThanOrEqual(before);

  const second = await startWorker("worker 2", t.customer.id);
  await waitFor(
    async () =>
      (await db.scheduledJob.count({
        where: { customerId: t.customer.id, kind: "automation.time", status: { not: "DONE" } },
      })) === 0,
    90_000,
    "every timer done",
  );
  await stopProcess(second);

  // Exactly once: one run per (rule, conversation), its note written once, every action done.
  const all = await db.automationRun.findMany({ where: { customerId: t.customer.id } });
  expect(all).toHaveLength(TIMERS);
  for (const uid of [idle, unanswered]) {
    const mine = all.filter((r) => r.ruleId === uid);
    expect(new Set(mine.map((r) => r.conversationId)).size).toBe(CONTACTS);
    expect(mine.every((r) => r.outcome === "done")).toBe(true);
  }
  const notes = await db.conversationNote.groupBy({
    by: ["conversationId", "text"],
    where: { customerId: t.customer.id },
    _count: { _all: true },
  });
  expect(notes).toHaveLength(TIMERS);
  expect(notes.every((n) => n._count._all === 1)).toBe(true);
  const conversations = await db.conversation.count({ where: { customerId: t.customer.id } });
  expect(conversations).toBe(CONTACTS);
}, 240_000);
