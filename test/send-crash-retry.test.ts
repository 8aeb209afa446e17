// A send retried after a crash is not sent twice (docs/idempotency.md "A retry after a crash"):
// the API process (`npm run serve:api`, the compiled bundle) sends with an Idempotency-Key and
// is killed with SIGKILL after the provider accepted, before the key's answer was stored and
// before the client read it. Restarted, a retry with the same key is in progress during the
// lease and, after it, answered from the stored message: one message at the provider, one row,
// one debit once the provider's status callbacks are in.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { IN_PROGRESS_LEASE_MS } from "@/lib/domains/idempotency/service";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { messagesChange } from "@/lib/domains/provider/simulator-inbound";
import { drainCallbacks } from "./conversation-fixtures";
import { waitFor } from "./events-helpers";
import { uniquePhone } from "./factory";
import { type FakeProvider, startFakeProvider } from "./fake-provider";
import { HELLO_PARAMS, messagingCustomer } from "./messaging-fixtures";
import { buildServerBundle, type ServerProcess, startProcess, stopProcess } from "./server-processes";

const START_MS = 120_000;
let provider: FakeProvider;
const processes: ServerProcess[] = [];

beforeAll(async () => {
  provider = await startFakeProvider();
  buildServerBundle();
}, START_MS);

afterAll(async () => {
  await Promise.all(processes.map((p) => stopProcess(p)));
  await provider?.close();
}, 60_000);

const startApi = async (name: string) => {
  const api = await startProcess(
    name,
    "serve-api",
    [],
    {
      DATABASE_URL: inject("databaseUrl"),
      PROVIDER_MODE: "http",
      PROVIDER_BASE_URL: provider.baseUrl,
      PROVIDER_ACCESS_TOKEN: "crash-retry-test-token",
      PORT: "0",
      LOG_LEVEL: "silent",
    },
    START_MS,
  );
  processes.push(api);
  return api;
};

/** Makes storing the answer of this Idempotency-Key fail until dropped (the key stays unanswered). */
async function keyAnswersFail(key: string) {
  const fn = `swb_test_key_fault_${randomBytes(4).toString("hex")}`;
  await db.$executeRawUnsafe(
    `CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN
       IF NEW.key = '${key}' AND NEW.status IS NOT NULL THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
  );
  await db.$executeRawUnsafe(
    `CREATE TRIGGER ${fn} BEFORE UPDATE ON "IdempotencyKey" FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  );
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn} ON "IdempotencyKey"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
  };
}

it(
  "a send killed after the provider accepted is answered from its stored message on a retry after the lease",
  async () => {
    const t = await messagingCustomer({ credit: 10 });
    const to = uniquePhone();
    const key = `crash-${to}`;
    const send = (api: ServerProcess, signal?: AbortSignal) =>
      fetch(`${api.base}/api/v3/send`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${t.globalToken}`,
          "Content-Type": "application/json",
          "Idempotency-Key": key,
        },
        body: JSON.stringify({ to, template: { name: "order_update", language: "en", components: HELLO_PARAMS } }),
        signal,
      });
    const atProvider = () => provider.sends.filter((s) => s.payload.to === to.slice(1));

    const first = await startApi("api-before-the-crash");
    const dropFault = await keyAnswersFail(key);
    const client = new AbortController();
    const lost = send(first, client.signal).catch(() => null);
    // Accepted by the provider and recorded; the key's answer cannot be stored.
    const accepted = await waitFor(
      () => db.message.findFirst({ where: { customerId: t.customer.id, recipient: to, status: "accepted" } }),
      60_000,
      "the provider to accept the send",
    );
    client.abort();
    first.child.kill("SIGKILL");
    await new Promise((resolve) => (first.child.exitCode !== null ? resolve(null) : first.child.once("exit", resolve)));
    await lost;
    await dropFault();
    expect(atProvider()).toHaveLength(1);
    expect(accepted.providerMessageId).toBe(atProvider()[0]?.wamid);
    const held = await db.idempotencyKey.findUniqueOrThrow({
      where: { customerId_key: { customerId: t.customer.id, key } },
    });
    expect(held).toMatchObject({ status: null, messageId: accepted.id });

    const second = await startApi("api-after-the-restart");
    // Within the lease the key still belongs to the first request.
    const early = await send(second);
    expect(early.status).toBe(409);
    expect((await early.json()).error_code).toBe("IDEMPOTENCY_KEY_IN_PROGRESS");
    // The lease (IN_PROGRESS_LEASE_MS, 5 minutes) has run out.
    await db.idempotencyKey.update({
      where: { id: held.id },
      data: { createdAt: new Date(Date.now() - IN_PROGRESS_LEASE_MS - 1_000) },
    });
    const retry = await send(second);
    const body = await retry.json();
    expect(retry.status, JSON.stringify(body)).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("x-service-message-id")).toBe(accepted.providerMessageId);
    expect(body.data).toMatchObject({
      messageUid: accepted.id,
      messageId: accepted.providerMessageId,
      status: "accepted",
      recipient: to,
      template: { name: "order_update", language: "en" },
    });
    // The answer is now the key's: later retries replay it.
    const again = await send(second);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json()).data).toEqual(body.data);
    expect(atProvider()).toHaveLength(1);
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: to } })).toBe(1);

    // The provider's status callbacks (the delivered one twice, as a provider's retry) bill it once.
    const status = (name: string) =>
      envelopeFor([
        messagesChange(
          { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
          {
            statuses: [
              {
                id: accepted.providerMessageId,
                status: name,
                timestamp: String(Math.floor(Date.now() / 1000)),
                recipient_id: to.slice(1),
                pricing: { billable: true, pricing_model: "PMP", category: "utility", type: "regular" },
                conversation: { id: randomBytes(16).toString("hex"), origin: { type: "utility" } },
              },
            ],
          },
        ),
      ]);
    for (const name of ["sent", "delivered", "delivered"]) {
      const raw = status(name);
      const posted = await fetch(`${second.base}/api/provider/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signProviderBody(raw) },
        body: raw,
      });
      expect(posted.status).toBe(200);
    }
    await drainCallbacks();
    const debits = await waitFor(
      async () => {
        await drainCallbacks();
        const rows = await db.billingTransaction.findMany({ where: { customerId: t.customer.id, type: "debit" } });
        return rows.length > 0 && rows;
      },
      30_000,
      "the debit",
    );
    expect(debits).toHaveLength(1);
    expect(atProvider()).toHaveLength(1);
  },
  4 * START_MS,
);
