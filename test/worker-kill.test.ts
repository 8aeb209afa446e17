// A worker process killed with SIGKILL mid-run loses no event: its leases expire and a
// second worker delivers the rest (at least once, with the same webhook-id).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";
import { createDestination, waitFor } from "./events-helpers";
import { createTestCustomer } from "./factory";
import { buildServerBundle, workerArgs } from "./server-processes";
import { startReceiver } from "./webhook-receiver";

const root = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];

function spawnWorker(customerId: string): ChildProcess {
  // The compiled worker, as `npm run worker` runs it (test/server-processes.ts workerArgs).
  const child = spawn(process.execPath, workerArgs("--deliveries-only", "--customer", customerId), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      WORKER_CONCURRENCY: "4",
      WORKER_POLL_MS: "20",
      WORKER_LEASE_MARGIN_MS: "300",
      WEBHOOK_RETRY_BASE_MS: "50",
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

it("delivers every event after the worker is killed with SIGKILL mid-run", async () => {
  const receiver = await startReceiver();
  try {
    const t = await createTestCustomer();
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/kill"),
      events: ["message.status.delivered"],
      timeoutMs: 1000,
    });
    receiver.route("/kill", secret, () => ({ status: 200, delayMs: 150 }));
    const n = 40;
    await emitEvents(
      db,
      Array.from({ length: n }, (_, i) => ({
        sender: t.sender,
        type: "message.status.delivered",
        dedupeKey: `kill:${randomBytes(8).toString("hex")}`,
        data: { i },
      })),
    );

    const first = spawnWorker(t.customer.id);
    await waitFor(() => receiver.on("/kill").length >= 6, 30_000, "first deliveries");
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const pendingAtKill = await db.webhookDelivery.count({
      where: { destinationId: destination.id, status: "PENDING" },
    });
    expect(pendingAtKill).toBeGreaterThan(0);

    const second = spawnWorker(t.customer.id);
    const rows = await waitFor(
      async () => {
        const r = await db.webhookDelivery.findMany({ where: { destinationId: destination.id } });
        return r.every((d) => d.status === "SUCCEEDED") && r;
      },
      40_000,
      "all deliveries",
    );
    second.kill("SIGTERM");

    const got = receiver.on("/kill");
    expect(rows).toHaveLength(n);
    expect(got.every((r) => r.verified)).toBe(true);
    const ids = new Set(rows.map((r) => r.id));
    const receivedIds = new Set(got.map((r) => r.webhookId));
    expect(receivedIds).toEqual(ids);
    // An attempt cut short by the kill still counts: attempts >= times the receiver saw it.
    const seen = (id: string) => got.filter((r) => r.webhookId === id).length;
    expect(rows.filter((r) => r.attempts < seen(r.id)).map((r) => r.id)).toEqual([]);
    // Each delivery carries its event: the same webhook-id always carried the same body.
    const bodyOf = new Map<string, string>();
    for (const r of got) {
      expect(bodyOf.get(r.webhookId) ?? r.body).toBe(r.body);
      bodyOf.set(r.webhookId, r.body);
    }
    await new Promise((resolve) => (second.exitCode === null ? second.once("exit", resolve) : resolve(null)));
    expect(second.exitCode).toBe(0);
  } finally {
    await receiver.close();
  }
}, 90_000);
