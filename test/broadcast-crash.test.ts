// A broadcast worker process killed with SIGKILL in the middle of a 1,000-recipient broadcast
// (docs/broadcasts.md "Crashes"): a second worker finishes it; no contact gets two messages,
// every recipient ends accepted/sent/delivered/read, failed, skipped or interrupted (a send the
// killed worker had in flight), none is left queued or sending.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { startBroadcast } from "@/lib/domains/broadcasts/service";
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
      PROVIDER_TIMEOUT_MS: "500",
      WORKER_LEASE_MARGIN_MS: "300",
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

const FINAL = new Set(["accepted", "sent", "delivered", "read", "failed", "skipped", "interrupted"]);

it("a worker killed mid-broadcast: the next one finishes it, nobody gets two messages", async () => {
  const t = await messagingCustomer({ credit: 1000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 200 } });
  const book = await db.contactBook.create({ data: { customerId: t.customer.id, name: "Crash" } });
  const n = 1000;
  await db.contact.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      customerId: t.customer.id,
      contactBookId: book.id,
      phoneNumber: uniquePhone(),
      name: `C${i}`,
    })),
    skipDuplicates: true,
  });
  const created = await call("POST", "/api/v3/broadcasts", {
    token: t.globalToken,
    body: {
      broadcast: {
        name: "Crash",
        template: { name: "order_update", language: "en" },
        audience: { contactBookUids: [book.id] },
        variables: { body: [{ source: "name" }] },
      },
    },
  });
  const uid = created.body.data.broadcastUid as string;
  const p = systemPrincipal(t.customer.id);
  await startBroadcast(p, undefined, uid, null);
  // The broadcast's messages as the product reads them, by customer and broadcast (Message's
  // index): the suite's one PGlite serves every file's rows, and a poll every 50 ms that
  // scans them all starves the workers under test.
  const sentOf = { customerId: t.customer.id, broadcastId: uid };
  const total = await db.broadcastRecipient.count({ where: { broadcastId: uid } });
  expect(total).toBeGreaterThan(990);

  const first = spawnWorker(t.customer.id);
  await expect.poll(() => db.message.count({ where: sentOf }), { timeout: 60_000, interval: 50 }).toBeGreaterThan(150);
  first.kill("SIGKILL");
  await new Promise((resolve) => first.once("exit", resolve));
  const sentBefore = await db.message.count({ where: sentOf });
  expect(sentBefore).toBeLessThan(total);

  spawnWorker(t.customer.id);
  await expect
    .poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status, {
      timeout: 120_000,
      interval: 200,
    })
    .toBe("COMPLETED");

  // A message the provider refused (130429 past the number's throughput: the simulator's
  // default is below the 200/s set here) reached nobody and is sent again; any other
  // message row counts as one the contact may have received.
  const perRecipient = await db.$queryRawUnsafe<{ recipient: string; statuses: string[] }[]>(
    `SELECT recipient, array_agg(status || ':' || coalesce("errorCode"::text, '')) AS statuses FROM "Message"
      WHERE "customerId" = $2 AND "broadcastId" = $1 AND NOT (status = 'failed' AND "errorCode" IN (130429, 131056))
      GROUP BY 1 HAVING count(*) > 1`,
    uid,
    t.customer.id,
  );
  expect(perRecipient).toEqual([]);
  const statuses = await db.broadcastRecipient.groupBy({
    by: ["status"],
    where: { broadcastId: uid },
    _count: { _all: true },
  });
  for (const s of statuses) expect(FINAL.has(s.status), s.status).toBe(true);
  // A recipient the killed worker had in flight is interrupted, and has at most its one message.
  const interrupted = await db.broadcastRecipient.findMany({ where: { broadcastId: uid, status: "interrupted" } });
  for (const r of interrupted) {
    expect(await db.message.count({ where: { ...sentOf, recipient: r.phoneNumber } })).toBeLessThanOrEqual(1);
  }
}, 240_000);
