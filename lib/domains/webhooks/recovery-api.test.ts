// Recovery of failed deliveries through the real router and the real recovery worker
// (docs/webhook-recovery.md): exactly the FAILED deliveries of the window are re-queued,
// each once, even when the job is interrupted, resumed or raced by two workers; other
// accounts see nothing; bad windows are refused with VALIDATION_FAILED. Every answer is
// validated against the OpenAPI document (test/openapi-answers.ts).
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { routes } from "@/lib/api/route-table";
import { db } from "@/lib/db";
import { closeWakeups, wakeupsReady } from "@/lib/db/wakeups";
import type { DeliveryStatus } from "@/lib/generated/prisma/client";
import { recordApiAnswers } from "@/test/api-answers";
import { waitFor } from "@/test/events-helpers";
import { type CallResult, call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { answerValidator } from "@/test/openapi-answers";
import { RECOVERY_MAX_DAYS } from "./recovery-schemas";
import { claimRecoveries, runRecoveryBatch } from "./recovery-store";
import { runDueRecoveries, startRecoveryWorker } from "./recovery-worker";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

afterAll(closeWakeups);

const validate = answerValidator(buildOpenApiDocument(routes));
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

/** Asserts the answer matches its operation's documented schema, then returns it. */
function documented(method: string, path: string, res: CallResult): CallResult {
  expect(validate({ method, path, status: res.status, body: res.body })).toEqual([]);
  return res;
}

async function createHook(t: TestCustomer, token = t.globalToken, senderId?: string): Promise<string> {
  const res = await call("POST", "/api/v3/webhooks", {
    token,
    body: {
      ...(senderId ? { senderId } : {}),
      webhook: { name: "recovery", endpointUrl: "https://example.com/in", events: ["message.status.sent"] },
    },
  });
  expect(res.status).toBe(200);
  return res.body.data.webhookUid;
}

/** A delivery of `uid` in the given state, created at `createdAt`. */
async function delivery(t: TestCustomer, uid: string, status: DeliveryStatus, createdAt: Date): Promise<string> {
  const event = await db.webhookEvent.create({
    data: {
      customerId: t.customer.id,
      senderId: t.sender.id,
      type: "message.status.sent",
      payload: { type: "message.status.sent", data: {} },
    },
  });
  const row = await db.webhookDelivery.create({
    data: { eventId: event.id, destinationId: uid, status, attempts: 6, createdAt, lastError: "HTTP 500" },
  });
  return row.id;
}

const statusOf = async (id: string) => (await db.webhookDelivery.findUniqueOrThrow({ where: { id } })).status;

async function recover(t: TestCustomer, uid: string, body: unknown, version = "v3", headers = {}) {
  const path = `/api/${version}/webhooks/${uid}/recover`;
  return documented("POST", path, await call("POST", path, { token: t.globalToken, body, headers }));
}
async function progress(t: TestCustomer, uid: string, job: string, token = t.globalToken) {
  const path = `/api/v3/webhooks/${uid}/recoveries/${job}`;
  return documented("GET", path, await call("GET", path, { token }));
}

describe("webhook recovery", () => {
  it("re-queues exactly the FAILED deliveries of the window, once, even when resumed from the start", async () => {
    const a = await createTestCustomer();
    const uid = await createHook(a);
    const otherUid = await createHook(a);
    const inWindow = [
      await delivery(a, uid, "FAILED", ago(2 * DAY)),
      await delivery(a, uid, "FAILED", ago(1 * DAY)),
      await delivery(a, uid, "FAILED", ago(1 * DAY)),
    ];
    const untouched = [
      await delivery(a, uid, "FAILED", ago(10 * DAY)), // before since
      await delivery(a, uid, "FAILED", ago(1 * HOUR)), // after until
      await delivery(a, uid, "SUCCEEDED", ago(1 * DAY)),
      await delivery(a, uid, "CANCELLED", ago(1 * DAY)),
      await delivery(a, otherUid, "FAILED", ago(1 * DAY)), // another destination
    ];
    const before = await Promise.all(untouched.map(statusOf));

    const res = await recover(a, uid, { since: ago(5 * DAY).toISOString(), until: ago(2 * HOUR).toISOString() }, "v2");
    expect(res.status).toBe(200);
    const job = res.body.data;
    expect(job).toMatchObject({ webhookUid: uid, status: "QUEUED", total: null, requeued: 0, startedAt: null });
    expect(job.recoveryUid).toBe(job.uid);
    expect((await progress(a, uid, job.recoveryUid)).body.data.status).toBe("QUEUED");

    // Batches of one: the cursor carries the job from delivery to delivery.
    await runDueRecoveries({ customerIds: [a.customer.id], batchSize: 1 });
    const done = (await progress(a, uid, job.recoveryUid)).body.data;
    expect(done).toMatchObject({ status: "COMPLETED", total: 3, requeued: 3, error: null });
    expect(done.startedAt).toEqual(expect.any(String));
    expect(done.completedAt).toEqual(expect.any(String));
    for (const id of inWindow) expect(await statusOf(id)).toBe("PENDING");
    expect(await Promise.all(untouched.map(statusOf))).toEqual(before);
    const requeued = await db.webhookDelivery.findUniqueOrThrow({ where: { id: inWindow[0] as string } });
    expect(requeued.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    // They fail again; the same job is then run again from the very start (an interrupted
    // job whose cursor was lost): the per-delivery markers stop every second re-queue.
    await db.webhookDelivery.updateMany({ where: { id: { in: inWindow } }, data: { status: "FAILED" } });
    await db.webhookRecovery.update({
      where: { id: job.recoveryUid },
      data: { status: "RUNNING", lockedUntil: ago(1000), cursorCreatedAt: null, cursorId: null },
    });
    await runDueRecoveries({ customerIds: [a.customer.id], batchSize: 2 });
    for (const id of inWindow) expect(await statusOf(id)).toBe("FAILED");
    expect((await progress(a, uid, job.recoveryUid)).body.data).toMatchObject({ status: "COMPLETED", requeued: 3 });
    expect(await db.webhookRecoveryItem.count({ where: { recoveryId: job.recoveryUid } })).toBe(3);
  });

  it("two workers racing, one of them losing its lease mid-job: every delivery is re-queued once", async () => {
    const a = await createTestCustomer();
    const uid = await createHook(a);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await delivery(a, uid, "FAILED", ago(DAY - i * 60_000)));
    const res = await recover(a, uid, { since: ago(2 * DAY).toISOString() });
    const jobId: string = res.body.data.recoveryUid;

    // Worker A claims the job, runs one batch of 5, then stalls past its lease.
    const [claimA] = await claimRecoveries(1, 60_000, [a.customer.id]);
    expect(claimA?.id).toBe(jobId);
    const first = await runRecoveryBatch(jobId, claimA?.lease as string, 5, 60_000);
    expect(first).toMatchObject({ state: "more", requeued: 5 });
    // Those five fail again at once; a second re-queue would show as PENDING.
    const firstFive = (await db.webhookRecoveryItem.findMany({ where: { recoveryId: jobId } })).map(
      (r) => r.deliveryId,
    );
    await db.webhookDelivery.updateMany({ where: { id: { in: firstFive } }, data: { status: "FAILED" } });
    // While A holds the lease, nobody else can claim the job.
    expect(await claimRecoveries(1, 60_000, [a.customer.id])).toEqual([]);
    await db.webhookRecovery.update({ where: { id: jobId }, data: { lockedUntil: ago(1000) } });

    // Two workers race for the expired job; A comes back with its old lease.
    const [b, c] = await Promise.all([
      runDueRecoveries({ customerIds: [a.customer.id], batchSize: 4 }),
      runDueRecoveries({ customerIds: [a.customer.id], batchSize: 4 }),
    ]);
    expect(b + c).toBe(1);
    if (first.state !== "more") throw new Error("unreachable");
    expect(await runRecoveryBatch(jobId, first.lease, 5, 60_000)).toEqual({ state: "lost", requeued: 0 });

    const job = (await progress(a, uid, jobId)).body.data;
    expect(job).toMatchObject({ status: "COMPLETED", total: 24, requeued: 24 });
    expect(await db.webhookRecoveryItem.count({ where: { recoveryId: jobId } })).toBe(24);
    for (const id of firstFive) expect(await statusOf(id)).toBe("FAILED");
    const rest = ids.filter((id) => !firstFive.includes(id));
    for (const id of rest) expect(await statusOf(id)).toBe("PENDING");
  });

  it("runs in the background worker, woken by NOTIFY; Idempotency-Key answers the same job", async () => {
    const a = await createTestCustomer();
    const uid = await createHook(a);
    const failed = await delivery(a, uid, "FAILED", ago(HOUR));
    // A long safety poll: only the wake-up can make the job run within the wait.
    let sleptAfter = -1;
    const worker = startRecoveryWorker({
      pollMs: 600_000,
      customerIds: [a.customer.id],
      onPause: (epoch) => {
        sleptAfter = epoch;
      },
    });
    try {
      await wakeupsReady();
      // The listener's start-up call is the first wake-up: once a pass that began after it has
      // gone to sleep, nothing but a NOTIFY starts another.
      await expect.poll(() => sleptAfter, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const key = { "Idempotency-Key": `rcv-${randomBytes(6).toString("hex")}` };
      const body = { since: ago(2 * HOUR).toISOString() };
      const first = await recover(a, uid, body, "v3", key);
      const replay = await recover(a, uid, body, "v3", key);
      expect(replay.body.data.recoveryUid).toBe(first.body.data.recoveryUid);
      expect(await db.webhookRecovery.count({ where: { destinationId: uid } })).toBe(1);
      await waitFor(
        async () => (await progress(a, uid, first.body.data.recoveryUid)).body.data.status === "COMPLETED",
        10_000,
        "the recovery to complete",
      );
      expect(await statusOf(failed)).toBe("PENDING");
      const reused = await recover(a, uid, { since: ago(3 * HOUR).toISOString() }, "v3", key);
      expect(reused.status).toBe(409);
      expect(reused.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    } finally {
      await worker.stop();
    }
  });

  it("is tenant-scoped: another account's webhook is WEBHOOK_NOT_FOUND, an unknown job WEBHOOK_RECOVERY_NOT_FOUND", async () => {
    const [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
    const uid = await createHook(a);
    const failed = await delivery(a, uid, "FAILED", ago(HOUR));
    const body = { since: ago(DAY).toISOString() };

    const foreign = await recover(b, uid, body);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    expect(await db.webhookRecovery.count({ where: { destinationId: uid } })).toBe(0);

    const job: string = (await recover(a, uid, body)).body.data.recoveryUid;
    const read = await progress(b, uid, job, b.globalToken);
    expect(read.status).toBe(404);
    expect(read.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    // b's own webhook with a's job id: still nothing of a's.
    const bUid = await createHook(b);
    const cross = await progress(b, bUid, job, b.globalToken);
    expect(cross.status).toBe(404);
    expect(cross.body.error_code).toBe("WEBHOOK_RECOVERY_NOT_FOUND");
    // A token bound to another sender of the same account.
    const otherSenderHook = await createHook(a, a.globalToken, a.otherSender.phoneNumber);
    const scoped = await call("POST", `/api/v3/webhooks/${otherSenderHook}/recover`, { token: a.scopedToken, body });
    expect(scoped.status).toBe(404);
    expect(scoped.body.error_code).toBe("WEBHOOK_NOT_FOUND");

    const unknown = await progress(a, uid, "rcv_nosuchjob");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("WEBHOOK_RECOVERY_NOT_FOUND");
    expect((await progress(a, uid, "bad%00id")).body.error_code).toBe("WEBHOOK_RECOVERY_NOT_FOUND");

    // b's worker pass never touches a's job.
    await runDueRecoveries({ customerIds: [b.customer.id] });
    expect(await statusOf(failed)).toBe("FAILED");
    expect((await progress(a, uid, job)).body.data.status).toBe("QUEUED");
  });

  it("refuses bad windows and INACTIVE destinations with VALIDATION_FAILED, writing nothing", async () => {
    const a = await createTestCustomer();
    const uid = await createHook(a);
    const iso = (d: Date) => d.toISOString();
    const cases: [unknown, string][] = [
      [{}, "since"],
      [{ since: "yesterday" }, "since"],
      [{ since: iso(new Date(Date.now() + HOUR)) }, "since"],
      [{ since: iso(ago((RECOVERY_MAX_DAYS + 1) * DAY)) }, "since"],
      [{ since: iso(ago(DAY)), until: iso(ago(2 * DAY)) }, "until"],
      [{ since: iso(ago(DAY)), until: iso(new Date(Date.now() + HOUR)) }, "until"],
      [{ since: iso(ago(DAY)), until: 5 }, "until"],
    ];
    for (const [body, field] of cases) {
      const res = await recover(a, uid, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      const paths = (res.body.details.fields as { path: string }[]).map((f) => f.path);
      expect(paths.join(" "), JSON.stringify(body)).toContain(field);
    }
    // since == until is a (tiny) valid window; 30 days back is allowed.
    const at = iso(ago(DAY));
    expect((await recover(a, uid, { since: at, until: at })).status).toBe(200);
    expect((await recover(a, uid, { since: iso(ago(RECOVERY_MAX_DAYS * DAY - HOUR)) })).status).toBe(200);
    expect(await db.webhookRecovery.count({ where: { destinationId: uid } })).toBe(2);

    await call("POST", `/api/v3/webhooks/${uid}`, { token: a.globalToken, body: { webhook: { status: "INACTIVE" } } });
    const inactive = await recover(a, uid, { since: at });
    expect(inactive.status).toBe(400);
    expect(inactive.body.error_code).toBe("VALIDATION_FAILED");
    expect(inactive.body.message).toMatch(/INACTIVE/);
    expect(await db.webhookRecovery.count({ where: { destinationId: uid } })).toBe(2);
  });

  it("stops with FAILED when the destination goes INACTIVE before the job runs", async () => {
    const a = await createTestCustomer();
    const uid = await createHook(a);
    const failed = await delivery(a, uid, "FAILED", ago(HOUR));
    const job: string = (await recover(a, uid, { since: ago(DAY).toISOString() })).body.data.recoveryUid;
    await call("POST", `/api/v3/webhooks/${uid}`, { token: a.globalToken, body: { webhook: { status: "INACTIVE" } } });
    await runDueRecoveries({ customerIds: [a.customer.id] });
    const read = (await progress(a, uid, job)).body.data;
    expect(read.status).toBe("FAILED");
    expect(read.error).toMatch(/INACTIVE/);
    expect(await statusOf(failed)).toBe("FAILED");
  });
});
