// Cancel and pause at any size (docs/broadcasts.md "States", issue: cancelling a SENDING
// broadcast with about a million queued recipients answered 500 three times and it kept
// sending). The cancel changes the broadcast's state first, in a short transaction, and its
// queued recipients become skipped (cancelled) in bounded chunks afterwards: here the chunk is
// 500 and the request's budget one chunk, so a few thousand recipients prove the chunking, and
// the rest is left as a crash between chunks would leave it for the housekeeping to finish.
import { afterAll, afterEach, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { otherConnection } from "@/test/other-connection";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { cancelSweep } from "./cancel-sweep";
import { dispatchOnce } from "./dispatcher";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

const CONTACTS = 3_000;
const defaults = { ...cancelSweep };
let t: Customer;
let provider: RecordingProvider;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 10_000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  provider = installRecordingProvider({ simulator: { failureRate: 0 } });
});

afterAll(() => provider.restore());

afterEach(() => {
  Object.assign(cancelSweep, defaults);
});

const post = (uid: string, action: string) =>
  call("POST", `/api/v3/broadcasts/${uid}/${action}`, { token: t.globalToken, body: {} });

/** A SENDING broadcast to a book of n contacts, its first batch sent. */
async function sendingBroadcast(n: number): Promise<string> {
  const book = await db.contactBook.create({ data: { customerId: t.customer.id, name: `Big ${uniquePhone()}` } });
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
        name: "Big",
        template: { name: "order_update", language: "en" },
        audience: { contactBookUids: [book.id] },
        variables: { body: [{ source: "name" }] },
      },
    },
  });
  const uid = created.body.data.broadcastUid as string;
  expect((await post(uid, "start")).status).toBe(200);
  await expect.poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("SENDING");
  expect(await dispatchOnce({ customerIds: [t.customer.id], batchSize: 50 })).toBeGreaterThan(0);
  return uid;
}

const countOf = (uid: string, status: "queued" | "skipped" | "sending") =>
  db.broadcastRecipient.count({ where: { broadcastId: uid, status } });

it("a cancel takes effect at once: the state first, the queued recipients skipped in chunks, a crash between chunks resumed", async () => {
  const uid = await sendingBroadcast(CONTACTS);
  const queuedBefore = await countOf(uid, "queued");
  expect(queuedBefore).toBeGreaterThan(2 * 500);
  cancelSweep.chunk = 500;
  cancelSweep.requestBudgetMs = 0;
  const callsBefore = provider.calls.length;

  const cancelled = await post(uid, "cancel");
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.data.status).toBe("CANCELLED");
  // One bounded chunk in the request; the rest still queued, as a crash after it would leave them.
  expect(await db.broadcastRecipient.count({ where: { broadcastId: uid, skipReason: "cancelled" } })).toBe(500);
  expect(await countOf(uid, "queued")).toBe(queuedBefore - 500);
  // Nothing more is claimed or sent, while the housekeeping skips the rest in chunks.
  for (let pass = 0; pass < 20 && (await countOf(uid, "queued")) > 0; pass++) {
    expect(await dispatchOnce({ customerIds: [t.customer.id], batchSize: 50 })).toBe(0);
  }
  expect(await countOf(uid, "queued")).toBe(0);
  expect(await db.broadcastRecipient.count({ where: { broadcastId: uid, skipReason: "cancelled" } })).toBe(
    queuedBefore,
  );
  expect(provider.calls.length).toBe(callsBefore);
  expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("CANCELLED");
  // A second cancel is idempotent.
  expect((await post(uid, "cancel")).status).toBe(200);
}, 60_000);

it("a pause takes effect at once: nothing more is sent, the queue kept for the resume", async () => {
  const uid = await sendingBroadcast(1_000);
  const queued = await countOf(uid, "queued");
  const callsBefore = provider.calls.length;
  const paused = await post(uid, "pause");
  expect(paused.status).toBe(200);
  expect(paused.body.data.status).toBe("PAUSED");
  expect(await dispatchOnce({ customerIds: [t.customer.id], batchSize: 50 })).toBe(0);
  expect(provider.calls.length).toBe(callsBefore);
  expect(await countOf(uid, "queued")).toBe(queued);
  expect((await post(uid, "cancel")).status).toBe(200);
}, 60_000);

it.runIf(inject("databaseKind") === "postgres")(
  "a state change never waits long on the broadcast's row lock: 409 BROADCAST_STATE_CONFLICT, never a held connection",
  async () => {
    const uid = await sendingBroadcast(200);
    await otherConnection(async (other) => {
      await other.query("BEGIN");
      await other.query(`SELECT id FROM "Broadcast" WHERE id = $1 FOR UPDATE`, [uid]);
      const started = Date.now();
      const answers = await Promise.all(["pause", "cancel", "resume"].map((a) => post(uid, a)));
      expect(Date.now() - started).toBeLessThan(3_500);
      for (const a of answers) {
        expect(a.status).toBe(409);
        expect(a.body).toMatchObject({ error_code: "BROADCAST_STATE_CONFLICT", details: { status: "SENDING" } });
      }
      await other.query("ROLLBACK");
    });
    expect((await post(uid, "cancel")).status).toBe(200);
  },
  30_000,
);
