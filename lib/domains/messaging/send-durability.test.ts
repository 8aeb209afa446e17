// A send is written before the provider is called and completed after: a row that cannot be
// written stops the send before anything left; once the provider accepted, the client gets
// the receipt (never a 5xx), the message stays in the reports, the Idempotency-Key replays
// the accepted answer, and rows a crash left mid-send become "unknown".
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { IN_PROGRESS_LEASE_MS } from "@/lib/domains/idempotency/service";
import { SENDING } from "@/lib/domains/messages/rows";
import { getSimulator } from "@/lib/domains/provider/client";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import { Prisma } from "@/lib/generated/prisma/client";
import { call } from "@/test/factory";
import { HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { reconcileStaleSends } from "./message-store";
import { sendMessage } from "./send";

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
const tpl = (to: string) => ({ to, template: { name: "order_update", components: HELLO_PARAMS } });

/** Makes every INSERT or UPDATE of this recipient's Message rows fail until dropped. */
async function injectFault(when: "INSERT" | "UPDATE", to: string) {
  const fn = `swb_test_msg_fault_${randomBytes(4).toString("hex")}`;
  await db.$executeRawUnsafe(
    `CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN
       IF NEW.recipient = '${to}' THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
  );
  await db.$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE ${when} ON "Message" FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  let dropped = false;
  return async () => {
    if (dropped) return;
    dropped = true;
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn} ON "Message"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
  };
}

describe("send durability", () => {
  it("a row that cannot be written stops the send before the provider; the key lets the retry run", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const headers = { "Idempotency-Key": `write-first-${to}` };
    const drop = await injectFault("INSERT", to);
    try {
      const failed = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(sim().acceptedTo(to)).toHaveLength(0);
    } finally {
      await drop();
    }
    const retry = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
    expect(retry.status).toBe(200);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });

  it("after the provider accepted, a failing completion still answers the receipt; the key replays it; nothing is lost", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const headers = { "Idempotency-Key": `accepted-${to}` };
    const drop = await injectFault("UPDATE", to);
    let uid: string;
    try {
      // As if the process stopped between the provider call and the row's completion.
      const first = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ status: "accepted", recipient: to });
      uid = first.body.data.messageUid;
      const retry = await call("POST", "/api/v2/send", { token: t.globalToken, body: tpl(to), headers });
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body.data.messageUid).toBe(uid);
      expect(sim().acceptedTo(to)).toHaveLength(1);
      // In the reports all along, as "sending" until its outcome is written.
      const report = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { recipient: to } });
      expect(report.status).toBe(200);
      expect(JSON.stringify(report.body.data)).toContain(uid);
      expect(await db.message.findUniqueOrThrow({ where: { id: uid } })).toMatchObject({ status: SENDING });
    } finally {
      await drop();
    }
    // The background reconciliation writes the outcome this process still holds.
    await reconcileStaleSends(60_000);
    const done = await db.message.findUniqueOrThrow({ where: { id: uid } });
    expect(done.status).toBe("accepted");
    expect(done.providerMessageId).toMatch(/^wamid\./);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });

  it("rows a crash left mid-send become unknown after the timeout, not before", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const res = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to) });
    const uid = res.body.data.messageUid as string;
    // The state a crash between the provider call and the completion leaves behind.
    await db.message.update({ where: { id: uid }, data: { status: SENDING, providerMessageId: null } });
    await reconcileStaleSends(60_000);
    expect((await db.message.findUniqueOrThrow({ where: { id: uid } })).status).toBe(SENDING);
    await db.message.update({ where: { id: uid }, data: { createdAt: new Date(Date.now() - 120_000) } });
    await reconcileStaleSends(60_000);
    const row = await db.message.findUniqueOrThrow({ where: { id: uid } });
    expect(row.status).toBe("unknown");
    expect(row.errorMessage).toContain("read the message report before resending");
  });

  it("an Idempotency-Key left in progress by a crash expires after its lease, not after 24 hours", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const headers = { "Idempotency-Key": `lease-${to}` };
    const first = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
    expect(first.status).toBe(200);
    const key = { customerId_key: { customerId: t.customer.id, key: headers["Idempotency-Key"] } };
    await db.idempotencyKey.update({
      where: key,
      data: { status: null, response: Prisma.DbNull, createdAt: new Date(Date.now() - 60_000) },
    });
    const busy = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
    expect(busy.status).toBe(409);
    expect(busy.body.error_code).toBe("IDEMPOTENCY_KEY_IN_PROGRESS");
    await db.idempotencyKey.update({
      where: key,
      data: { createdAt: new Date(Date.now() - IN_PROGRESS_LEASE_MS - 1_000) },
    });
    expect(IN_PROGRESS_LEASE_MS).toBeLessThanOrEqual(15 * 60_000);
    const taken = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
    expect(taken.status).toBe(200);
  });

  it("a lone surrogate in the text never answers 5xx; if it is sent, the stored row matches what left", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    // A template parameter: free-form text outside a conversation window is refused anyway.
    const body = {
      to,
      template: {
        name: "order_update",
        language: "en",
        components: [{ type: "body", parameters: [{ type: "text", text: "lone \ud800 surrogate" }] }],
      },
    };
    const res = await call("POST", "/api/v3/send", { token: t.globalToken, body });
    expect(res.status).toBeLessThan(500);
    if (res.status === 200) {
      expect(sim().acceptedTo(to)).toHaveLength(1);
      const row = await db.message.findFirstOrThrow({ where: { customerId: t.customer.id, recipient: to } });
      expect(JSON.stringify(row.payload)).toContain("lone \uFFFD surrogate");
      expect(row.status).toBe("accepted");
    } else {
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(sim().acceptedTo(to)).toHaveLength(0);
    }
  });

  it("a lone surrogate that reaches the send leaves as U+FFFD, the same bytes as the stored row", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const p: Principal = systemPrincipal(t.customer.id);
    const payload = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to,
      type: "template",
      template: {
        name: "order_update",
        language: { code: "en" },
        components: [{ type: "body", parameters: [{ type: "text", text: "lone \ud800 surrogate" }] }],
      },
    } as unknown as ProviderMessagePayload;
    const { message } = await sendMessage(p, t.sender, {
      sendRoute: "send",
      recipient: to,
      payload,
      template: { name: "order_update", language: "en" },
    });
    expect(message.status).toBe("accepted");
    expect(sim().acceptedTo(to)).toHaveLength(1);
    const row = await db.message.findUniqueOrThrow({ where: { id: message.id } });
    expect(JSON.stringify(row.payload)).toContain("lone \uFFFD surrogate");
    expect(row.status).toBe("accepted");
  });
});
