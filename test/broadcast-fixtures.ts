// A broadcast of the test template to a list of numbers, created and started through the API
// (as an integrator does: docs/broadcasts.md "How to send one"), and the conversations it meets,
// for the tests of the engine.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";

/**
 * A customer with credit whose default sender sends 1,000 a second, and a provider that records
 * each call and sends no status back, so the dispatcher's are the only writes (restore it after).
 */
export async function fastSenderCustomer(): Promise<{
  t: Awaited<ReturnType<typeof messagingCustomer>>;
  provider: RecordingProvider;
}> {
  const t = await messagingCustomer({ credit: 1_000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  const provider = installRecordingProvider({
    simulator: { failureRate: 0, statusDelayMs: 200_000_000, replyRate: 0 },
  });
  return { t, provider };
}

/** Creates and starts a broadcast of order_update to `phones`; its uid. */
export async function startedBroadcast(
  token: string,
  phones: string[],
  options: { name?: string; maxPerSecond?: number } = {},
): Promise<string> {
  const created = await call("POST", "/api/v3/broadcasts", {
    token,
    body: {
      broadcast: {
        name: options.name ?? "Test broadcast",
        template: { name: "order_update", language: "en" },
        audience: { phoneNumbers: phones },
        variables: { body: [{ source: "constant", value: "Ana" }] },
        ...(options.maxPerSecond ? { maxPerSecond: options.maxPerSecond } : {}),
      },
    },
  });
  expect(created.status).toBe(201);
  const uid = created.body.data.broadcastUid as string;
  expect((await call("POST", `/api/v3/broadcasts/${uid}/start`, { token, body: {} })).status).toBe(200);
  return uid;
}

/**
 * A contact's conversation waiting for a person a minute ago (a chatbot's hand-off, SLA
 * response and resolution due in an hour, a support period waiting), closed when `closed`:
 * what a broadcast's message must leave waiting (docs/reports.md "Definitions").
 */
export async function waitingConversation(
  owner: { customerId: string; senderId: string },
  phone: string,
  closed: boolean,
): Promise<{ id: string; period: string; at: Date; due: Date }> {
  const at = new Date(Date.now() - 60_000);
  const due = new Date(Date.now() + 3_600_000);
  const id = `conv_${randomBytes(12).toString("hex")}`;
  await db.conversation.create({
    data: {
      id,
      ...owner,
      contactPhoneNumber: phone,
      status: closed ? "CLOSED" : "OPEN",
      closedAt: closed ? at : null,
      lastMessageAt: at,
      lastInboundAt: at,
      lastMessagePreview: "earlier",
      handoffAt: at,
      slaFirstResponseDueAt: due,
      slaDueAt: due,
    },
  });
  const period = await db.supportPeriod.create({
    data: {
      id: `sp_${randomBytes(12).toString("hex")}`,
      ...owner,
      conversationId: id,
      startedAt: at,
      waitingSince: at,
    },
  });
  return { id, period: period.id, at, due };
}
