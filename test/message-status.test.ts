// One message store (docs/messaging.md "Message statuses"): a message keeps its own status on
// its row, moved forward by the callback processor as its billing record is (a late delivered
// never replaces read, a failed after delivery is ignored), and the reports read it there; the
// migration gives the messages sent before it their billing record's status.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { postProvider, sentMessages, statusBody, type TestStatus } from "./events-helpers";
import { call, createTestCustomer } from "./factory";

const drain = async () => {
  for (let i = 0; i < 50; i++) if ((await processPendingCallbacks(200)).callbacks === 0) return;
};

const statusOf = async (providerMessageId: string) => {
  const m = await db.message.findFirstOrThrow({ where: { providerMessageId } });
  const b = await db.billingRecord.findUnique({ where: { messageId: providerMessageId } });
  return { message: m.status, record: b?.status ?? null, errorCode: m.errorCode, errorMessage: m.errorMessage };
};

describe("a message's own status", () => {
  it("follows its billing record through shuffled, repeated and late statuses, never back", async () => {
    const t = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const [a, b, c] = ["a", "b", "c"].map((x) => `wamid.own.${tag}.${x}`) as [string, string, string];
    await sentMessages(t.sender, tag, new Map([a, b, c].map((id, i) => [id, `+1555000${tag.slice(0, 2)}0${i}`])));
    const undeliverable = { code: 131026, title: "Message undeliverable" };
    const batches: TestStatus[][] = [
      [
        { id: a, status: "read" },
        { id: b, status: "sent" },
      ],
      [
        { id: a, status: "delivered" },
        { id: b, status: "failed", errors: [undeliverable] },
        { id: c, status: "delivered" },
      ],
      [
        { id: c, status: "read" },
        { id: a, status: "sent" },
        { id: b, status: "delivered" },
      ],
      [
        { id: c, status: "delivered" },
        { id: a, status: "failed", errors: [undeliverable] },
      ],
    ];
    for (const statuses of batches) {
      expect((await postProvider(statusBody(t.sender, statuses))).status).toBe(200);
      await drain();
    }
    expect(await statusOf(a)).toEqual({ message: "read", record: "read", errorCode: null, errorMessage: null });
    expect(await statusOf(b)).toEqual({
      message: "failed",
      record: "failed",
      errorCode: 131026,
      errorMessage: "Message undeliverable",
    });
    expect(await statusOf(c)).toMatchObject({ message: "read", record: "read" });

    // The reports read the message's own status.
    const read = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { status: "read" } });
    expect(read.status).toBe(200);
    expect(read.body.data.messages.map((m: { messageId: string }) => m.messageId).sort()).toEqual([a, c].sort());
    const failed = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { status: "failed" } });
    expect(failed.body.data.messages).toEqual([
      expect.objectContaining({
        messageId: b,
        status: "failed",
        errorCode: 131026,
        errorMessage: "Message undeliverable",
      }),
    ]);
  });

  it("the migration gives messages sent before it their billing record's status and error", async () => {
    const t = await createTestCustomer();
    const tag = randomBytes(4).toString("hex");
    const ids = ["delivered", "failed", "none", "accepted"].map((s) => `wamid.before.${tag}.${s}`);
    const [delivered, failed, none, accepted] = ids as [string, string, string, string];
    await sentMessages(t.sender, tag, new Map(ids.map((id, i) => [id, `+1555111${tag.slice(0, 2)}0${i}`])));
    const record = (messageId: string, status: string, error?: { errorCode: number; errorTitle: string }) =>
      db.billingRecord.create({
        data: {
          customerId: t.customer.id,
          senderId: t.sender.id,
          phoneNumberId: t.sender.phoneNumberId ?? "",
          senderPhoneNumber: t.sender.phoneNumber,
          messageId,
          recipientId: "15551110000",
          status,
          messageTimestamp: new Date(),
          ...error,
        },
      });
    // As the rows stood before the migration: every message "accepted", its delivery on the record.
    await record(delivered, "delivered");
    await record(failed, "failed", { errorCode: 131049, errorTitle: "Marketing cap" });
    await record(accepted, "accepted");
    const sending = await db.message.create({
      data: {
        id: `msg_${randomBytes(12).toString("hex")}`,
        customerId: t.customer.id,
        senderId: t.sender.id,
        recipient: "+15551119999",
        type: "text",
        sendRoute: "chat",
        status: "sending",
        payload: {},
      },
    });
    const migration = readFileSync(
      path.resolve(
        import.meta.dirname,
        "../prisma/migrations/20261128215051_message_status_from_billing/migration.sql",
      ),
      "utf8",
    );
    await db.$executeRawUnsafe(migration);
    expect(await statusOf(delivered)).toMatchObject({ message: "delivered", errorCode: null });
    expect(await statusOf(failed)).toMatchObject({
      message: "failed",
      errorCode: 131049,
      errorMessage: "Marketing cap",
    });
    expect(await statusOf(none)).toMatchObject({ message: "accepted", record: null });
    expect(await statusOf(accepted)).toMatchObject({ message: "accepted", record: "accepted" });
    expect((await db.message.findUniqueOrThrow({ where: { id: sending.id } })).status).toBe("sending");
  });
});
