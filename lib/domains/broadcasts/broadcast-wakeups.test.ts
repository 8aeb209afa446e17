// The broadcast dispatcher is quiet when idle (docs/broadcasts.md "How it sends"): with nothing
// under way it sleeps until a NOTIFY from the "Broadcast" trigger or the next due time, never on
// a short poll. Here its safety poll is ten minutes, so each broadcast below is sent only if the
// wake-up (a start, a resume) or the timer (a scheduled start, a messaging-limit resume) works.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { db } from "@/lib/db";
import { isListening } from "@/lib/db/wakeups";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { startBroadcastWorker } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;
let provider: RecordingProvider;
let worker: ReturnType<typeof startBroadcastWorker>;
const TEN_MINUTES = 600_000;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 100_000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  provider = installRecordingProvider({ simulator: { failureRate: 0, statusDelayMs: 200_000_000, replyRate: 0 } });
  worker = startBroadcastWorker({ customerIds: [t.customer.id], idlePollMs: TEN_MINUTES });
});

afterAll(async () => {
  await worker.stop();
  provider.restore();
});

// Every lane asleep for the idle time, listening: what follows is picked up only by a wake-up or the timer.
beforeEach(async () => {
  await expect.poll(() => isListening("broadcasts") && worker.idleLanes(), { timeout: 10_000, interval: 20 }).toBe(2);
});

const post = (uid: string, action: string, body: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/broadcasts/${uid}/${action}`, { token: t.globalToken, body });

async function draft(): Promise<string> {
  const created = await call("POST", "/api/v3/broadcasts", {
    token: t.globalToken,
    body: {
      broadcast: {
        name: "Wake-up",
        template: { name: "order_update", language: "en" },
        audience: { phoneNumbers: [uniquePhone(), uniquePhone()] },
        variables: { body: [{ source: "constant", value: "Ana" }] },
      },
    },
  });
  expect(created.status).toBe(201);
  return created.body.data.broadcastUid as string;
}

const completed = (uid: string) =>
  expect
    .poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status, {
      timeout: 10_000,
      interval: 20,
    })
    .toBe("COMPLETED");

it("a start wakes the idle dispatcher", async () => {
  const uid = await draft();
  expect((await post(uid, "start")).status).toBe(200);
  await completed(uid);
});

it("a scheduled start falls due on the dispatcher's timer", async () => {
  const uid = await draft();
  const at = new Date(Date.now() + 1_500);
  expect((await post(uid, "start", { scheduledAt: at.toISOString() })).body.data.status).toBe("SCHEDULED");
  await completed(uid);
  const started = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
  expect(started.startedAt?.getTime()).toBeGreaterThanOrEqual(at.getTime());
});

it("a resume wakes the idle dispatcher", async () => {
  await worker.stop();
  const uid = await draft();
  expect((await post(uid, "start")).status).toBe(200);
  expect((await post(uid, "pause")).body.data.status).toBe("PAUSED");
  worker = startBroadcastWorker({ customerIds: [t.customer.id], idlePollMs: TEN_MINUTES });
  await expect.poll(() => isListening("broadcasts") && worker.idleLanes(), { timeout: 10_000, interval: 20 }).toBe(2);
  expect(await db.message.count({ where: { broadcastId: uid } })).toBe(0);
  expect((await post(uid, "resume")).body.data.status).toBe("SENDING");
  await completed(uid);
});

it("a messaging-limit pause resumes on the dispatcher's timer", async () => {
  await worker.stop();
  const uid = await draft();
  expect((await post(uid, "start")).status).toBe(200);
  const resumesAt = new Date(Date.now() + 1_500);
  await db.broadcast.update({
    where: { id: uid },
    data: { status: "PAUSED", pauseReason: "messaging_limit", resumesAt },
  });
  worker = startBroadcastWorker({ customerIds: [t.customer.id], idlePollMs: TEN_MINUTES });
  await expect.poll(() => isListening("broadcasts") && worker.idleLanes(), { timeout: 10_000, interval: 20 }).toBe(2);
  await completed(uid);
  expect(Date.now()).toBeGreaterThanOrEqual(resumesAt.getTime());
});
