// State changes racing the dispatcher (docs/broadcasts.md "States", issue: 80 recipients marked
// skipped/cancelled and then sent and billed): two worker loops send a broadcast while 100
// concurrent pause, resume, cancel, retry-failed and start calls land on it through the real
// router, 50 times. No recipient the cancel skipped ever reaches the provider, and every
// recipient the provider accepted carries what was sent (never skipped, queued or interrupted).
// (A call the provider refused, 130429 or 131056, sent nothing: such a recipient is queued
// again and may then be cancelled.)
// On PostgreSQL the 50 races run in five accounts side by side, ten after one another in each: a
// race mostly waits (its broadcast's next paced second, the drain after the cancel), about 3 s
// each, so one after the other took 145 s alone and 190 s in CI (side by side: 27-31 s alone,
// 134 s in CI). Each race is the same: its 100 calls land together on its one broadcast while
// the two workers send it.
// When two lanes' calls overlap they also share the process's connections (10; docs/database.md
// "Connections"), so fewer of one race's calls may be in flight at once. One account per lane, as
// the calls of one account share its 6: five bursts in one account would mostly be refused.
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { startBroadcastWorker } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

// 50 on PostgreSQL (the count); embedded PGlite runs one statement at a time, so a few
// rounds there show the same rule at a fraction of the time.
const ROUNDS = inject("databaseKind") === "postgres" ? 50 : 5;
const SIDE_BY_SIDE = inject("databaseKind") === "postgres" ? 5 : 1;
const RECIPIENTS = 40;
// A pace below the audience: batches wait for their next second holding their claims, as a
// real broadcast does most of its life.
const PACE = 15;
const ACTIONS = ["pause", "resume", "retry-failed", "start", "cancel"] as const;
const SENT = new Set(["accepted", "sent", "delivered", "read", "failed"]);

let accounts: Customer[] = [];
let provider: RecordingProvider;
let workers: { stop: () => Promise<void> }[] = [];

beforeAll(async () => {
  accounts = await Promise.all(Array.from({ length: SIDE_BY_SIDE }, () => messagingCustomer({ credit: 10_000 })));
  for (const t of accounts) {
    await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  }
  // A provider that takes a few milliseconds, as a real one takes tens: batches overlap the calls.
  provider = installRecordingProvider({ delayMs: () => 2 + Math.random() * 10, simulator: { failureRate: 0 } });
  const customerIds = accounts.map((t) => t.customer.id);
  workers = [0, 1].map(() => startBroadcastWorker({ customerIds, pollMs: 20 }));
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  provider.restore();
});

const post = (t: Customer, uid: string, action: string) =>
  call("POST", `/api/v3/broadcasts/${uid}/${action}`, { token: t.globalToken, body: {} });

/** 100 calls: every kind, shuffled, the cancels among them. */
function raceCalls(): string[] {
  const calls: string[] = Array.from({ length: 100 }, (_, i) => ACTIONS[i % (ACTIONS.length - 1)] as string);
  for (let i = 0; i < 5; i++) calls[Math.floor(Math.random() * calls.length)] = "cancel";
  return calls.sort(() => Math.random() - 0.5);
}

it(`${ROUNDS} rounds of 100 concurrent state changes against two workers: nothing reaches a cancelled recipient`, async () => {
  // Every lane ends before the test does (a failing lane would otherwise leave the others running
  // past the workers' stop, into the next files of this process): the first failure is thrown then.
  const settled = await Promise.allSettled(
    accounts.map((t, lane) => races(t, lane, Math.ceil((ROUNDS - lane) / SIDE_BY_SIDE))),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  const lanes = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  // Every race was run to its end.
  expect(lanes.reduce((sum, lane) => sum + lane.rounds, 0)).toBe(ROUNDS);
  // The races did cancel recipients before they were sent (else the test proved nothing).
  expect(lanes.reduce((sum, lane) => sum + lane.recipients, 0)).toBeGreaterThan(0);
}, 600_000);

/** `rounds` races, one after the other, in account `t`: how many ended, and the recipients they cancelled. */
async function races(t: Customer, lane: number, rounds: number) {
  let cancelledRecipients = 0;
  let ended = 0;
  for (let i = 0; i < rounds; i++) {
    const round = lane + i * SIDE_BY_SIDE;
    const phones = Array.from({ length: RECIPIENTS }, () => uniquePhone());
    const created = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: {
        broadcast: {
          name: `Race ${round}`,
          template: { name: "order_update", language: "en" },
          audience: { phoneNumbers: phones },
          variables: { body: [{ source: "constant", value: "Ana" }] },
          maxPerSecond: PACE,
        },
      },
    });
    const uid = created.body.data.broadcastUid as string;
    expect((await post(t, uid, "start")).status).toBe(200);
    // Into the sending: the first calls are out, most recipients still to go.
    await expect
      .poll(() => provider.calls.filter((c) => phones.includes(c.to)).length, { timeout: 20_000, interval: 2 })
      .toBeGreaterThan(0);
    const answers = await Promise.all(raceCalls().map((action) => post(t, uid, action)));
    // 503 is the account's share of the database connections, or the process's pool the lanes share
    // (docs/database.md "Connections"): a call that waited past its limit on a busy machine and
    // changed nothing.
    for (const a of answers) expect([200, 402, 409, 503], JSON.stringify(a.body)).toContain(a.status);
    // Most calls are served: the race is real.
    expect(answers.filter((a) => a.status !== 503).length).toBeGreaterThanOrEqual(50);
    // A cancel among them may have lost to a later resume's conflict: cancel again to end it.
    await post(t, uid, "cancel");
    await expect
      .poll(
        async () => db.broadcastRecipient.count({ where: { broadcastId: uid, status: { in: ["queued", "sending"] } } }),
        { timeout: 30_000, interval: 20 },
      )
      .toBe(0);
    const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
    const accepted = provider.acceptedTo();
    for (const r of recipients) {
      if (r.status === "skipped") {
        expect(r.skipReason).toBe("cancelled");
        const calls = provider.calls.filter((c) => c.to === r.phoneNumber);
        expect(accepted.has(r.phoneNumber), `skipped as cancelled, then sent: ${JSON.stringify(calls)}`).toBe(false);
        cancelledRecipients += 1;
      }
      if (accepted.has(r.phoneNumber)) {
        expect(SENT.has(r.status), `${r.phoneNumber} accepted by the provider but ${r.status}`).toBe(true);
      }
    }
    // One accepted message per recipient at most.
    const perPhone = provider.calls.filter((c) => c.accepted && phones.includes(c.to)).map((c) => c.to);
    expect(perPhone.length).toBe(new Set(perPhone).size);
    ended += 1;
  }
  return { rounds: ended, recipients: cancelledRecipients };
}
