// A broadcast's group of sends locks its contacts' conversations in id order, as the inbound
// batch and every other path does (lib/domains/messaging/send-batch.ts recordMessages): with
// the group upserting in contact order, a group and another transaction holding the same two
// conversations in id order each waited for the other's row (a deadlock; PostgreSQL aborted
// one after deadlock_timeout). PostgreSQL only: the embedded database runs one transaction
// at a time, so no two can wait on each other there.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { fastSenderCustomer, startedBroadcast } from "@/test/broadcast-fixtures";
import { uniquePhone } from "@/test/factory";
import type { messagingCustomer } from "@/test/messaging-fixtures";
import { otherConnection } from "@/test/other-connection";
import type { RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let provider: RecordingProvider;

beforeAll(async () => {
  ({ t, provider } = await fastSenderCustomer());
});

afterAll(() => provider.restore());

async function conversation(id: string, phone: string): Promise<void> {
  const at = new Date(Date.now() - 60_000);
  await db.conversation.create({
    data: { id, customerId: t.customer.id, senderId: t.sender.id, contactPhoneNumber: phone, lastMessageAt: at },
  });
}

/** A broadcast to two contacts whose conversation ids sort opposite to their numbers; its uid and ids. */
async function twoContacts(): Promise<{ uid: string; earlyId: string; lateId: string; phones: string[] }> {
  // Contact order and id order disagree: the first contact's conversation has the later id.
  const [first, second] = [uniquePhone(), uniquePhone()].sort() as [string, string];
  const tag = randomBytes(6).toString("hex");
  const [earlyId, lateId] = [`conv_0${tag}`, `conv_z${tag}`];
  await conversation(lateId, first);
  await conversation(earlyId, second);
  const uid = await startedBroadcast(t.globalToken, [first, second], { name: "Lock order" });
  return { uid, earlyId, lateId, phones: [first, second] };
}

/**
 * Another transaction holds `held`, `passes` of the dispatcher start and one waits for a row lock, then
 * the other asks for `then` (its deadlock check after `otherDeadlockMs`) and commits.
 */
async function contend(
  held: string,
  then: string,
  otherDeadlockMs: number,
  passes: () => Promise<unknown>,
): Promise<void> {
  await otherConnection(async (client) => {
    await client.query("BEGIN");
    await client.query(`SET LOCAL deadlock_timeout = '${otherDeadlockMs}ms'`);
    await client.query(`SELECT 1 FROM "Conversation" WHERE "id" = $1 FOR UPDATE`, [held]);
    const pass = passes();
    await expect
      .poll(
        async () =>
          (
            await client.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
            )
          ).rows[0].n,
        { timeout: 15_000, interval: 20 },
      )
      .toBeGreaterThan(0);
    try {
      await client.query(`SELECT 1 FROM "Conversation" WHERE "id" = $1 FOR UPDATE`, [then]);
      await client.query("COMMIT");
    } finally {
      await pass;
    }
  });
}

/** Passes until the broadcast completes (a start still making its recipients is finished by their housekeeping), 20 s at most. */
function untilDone(uid: string): () => Promise<void> {
  return async () => {
    for (const until = Date.now() + 20_000; Date.now() < until; ) {
      await dispatchOnce({ customerIds: [t.customer.id] });
      if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status === "COMPLETED") return;
    }
  };
}

async function expectSentOnce(uid: string, phones: string[], ids: string[]): Promise<void> {
  const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
  expect(recipients.map((r) => r.status)).toEqual(["accepted", "accepted"]);
  expect(provider.calls.filter((c) => phones.includes(c.to))).toHaveLength(2);
  for (const id of ids) {
    expect(await db.conversationMessage.count({ where: { conversationId: id, direction: "outbound" } })).toBe(1);
  }
}

const postgres = inject("databaseKind") === "postgres";

it.runIf(postgres)(
  "a transaction holding the earlier conversation and then asking for the later one: the group waits holding neither",
  async () => {
    const { uid, earlyId, lateId, phones } = await twoContacts();
    // The other transaction checks for a deadlock first: had the group taken the later row
    // (its contact comes first), the other's second lock would fail with 40P01 here.
    await contend(earlyId, lateId, 10, untilDone(uid));
    await expectSentOnce(uid, phones, [earlyId, lateId]);
  },
);

it.runIf(postgres)(
  "a group undone by a deadlock is recorded again: nothing was written or called, every contact is sent once",
  async () => {
    const { uid, earlyId, lateId, phones } = await twoContacts();
    // Held in the opposite order: the group takes the earlier row and waits for the later one,
    // the other asks for the earlier one, and the group's own deadlock check (1 s) undoes it.
    // One pass, no housekeeping: the recipients are accepted by that pass, or a group given up
    // after the deadlock would have left them interrupted (requeued only by a later pass).
    await expect
      .poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status, { timeout: 10_000 })
      .toBe("SENDING");
    await contend(lateId, earlyId, 60_000, () => dispatchOnce({ customerIds: [t.customer.id], housekeeping: false }));
    await expectSentOnce(uid, phones, [earlyId, lateId]);
  },
);
