// Recipients a crash left behind are settled from what was sent (docs/broadcasts.md
// "Crashes", issue: after a PostgreSQL restart, recipients "interrupted" with no message row,
// never sent and counted as lost, and others "interrupted" whose messages the provider had
// accepted and billed). A simulated crash: rows left "sending" past their lease, some after
// their provider call (a message the provider accepted), some before their message row was
// written, some already "interrupted" without a message row, one whose call's outcome is
// unknown. The next passes send the unsent ones once, give the sent ones their message's
// status, and leave only the unknown one interrupted.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startedBroadcast } from "@/test/broadcast-fixtures";
import { uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";
import { recipientMessageId } from "./recipient-message";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

let t: Customer;
let provider: RecordingProvider;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 1_000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  provider = installRecordingProvider({ simulator: { failureRate: 0 } });
});

afterAll(() => provider.restore());

it("after a crash: unsent recipients are queued again and sent once, sent ones take their message's status", async () => {
  const phones = [...new Set(Array.from({ length: 30 }, () => uniquePhone()))];
  const uid = await startedBroadcast(t.globalToken, phones, { name: "Crash" });
  expect(await dispatchOnce({ customerIds: [t.customer.id], batchSize: 10, housekeeping: false })).toBe(10);

  const rows = await db.broadcastRecipient.findMany({ where: { broadcastId: uid }, orderBy: { id: "asc" } });
  const sent = rows.filter((r) => r.status === "accepted");
  const queued = rows.filter((r) => r.status === "queued");
  expect(sent).toHaveLength(10);
  const past = new Date(Date.now() - 1_000);
  // Died after the provider call, before the batch's outcomes: "sending", the message accepted.
  await db.broadcastRecipient.updateMany({
    where: { id: { in: sent.map((r) => r.id) } },
    data: { status: "sending", lockedUntil: past },
  });
  // One of them: the call's outcome is not known (the message "unknown").
  const unknown = sent[0] as (typeof sent)[number];
  await db.message.update({ where: { id: unknown.messageId as string }, data: { status: "unknown" } });
  // Died after the "sending" mark, before its message row: never called.
  const unsent = queued.slice(0, 5);
  // Marked "interrupted" by the old rule, no message row.
  const lost = queued.slice(5, 10);
  for (const [list, status] of [
    [unsent, "sending"],
    [lost, "interrupted"],
  ] as const) {
    for (const r of list) {
      await db.broadcastRecipient.update({
        where: { id: r.id },
        data: {
          status,
          attempts: r.attempts + 1,
          messageId: recipientMessageId(uid, r.id, r.attempts + 1),
          sendingAt: past,
          lockedUntil: past,
        },
      });
    }
  }

  for (let pass = 0; pass < 30; pass++) {
    await dispatchOnce({ customerIds: [t.customer.id], batchSize: 50 });
    if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status === "COMPLETED") break;
  }
  expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("COMPLETED");
  const after = new Map((await db.broadcastRecipient.findMany({ where: { broadcastId: uid } })).map((r) => [r.id, r]));
  const accepted = (phone: string) => provider.calls.filter((c) => c.to === phone && c.accepted).length;
  const SENT = ["accepted", "sent", "delivered", "read"];
  expect(after.get(unknown.id)?.status).toBe("interrupted");
  for (const r of sent.slice(1)) {
    expect(SENT, r.phoneNumber).toContain(after.get(r.id)?.status);
    expect(after.get(r.id)?.messageId).toBe(r.messageId);
  }
  for (const r of [...unsent, ...lost]) {
    expect(SENT, r.phoneNumber).toContain(after.get(r.id)?.status);
    expect(await db.message.count({ where: { id: after.get(r.id)?.messageId as string } })).toBe(1);
  }
  // Each contact got exactly one message.
  for (const phone of phones) expect(accepted(phone), phone).toBe(1);
}, 60_000);
