// Signing-secret rotation through the real router and the real delivery worker
// (docs/event-pipeline.md "Secret rotation"): the new secret is shown once; during the
// grace every delivery carries both signatures and each verifies with the public
// `standardwebhooks` package; after it only the new one does.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/core/crypto/secret-box";
import { db } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";
import { recordApiAnswers } from "@/test/api-answers";
import { waitFor } from "@/test/events-helpers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { type Received, type Receiver, startReceiver } from "@/test/webhook-receiver";
import { startDeliveryWorker } from "./worker";
import { dropExpiredPreviousSecrets } from "./worker-store";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

let receiver: Receiver;
let a: TestCustomer;
let b: TestCustomer;
let worker: { stop: () => Promise<void> };

beforeAll(async () => {
  receiver = await startReceiver();
  [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  worker = startDeliveryWorker({ pollMs: 10, customerIds: [a.customer.id] });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const rotate = (token: string, uid: string, body: Record<string, unknown> = {}, version = "v3") =>
  call("POST", `/api/${version}/webhooks/${uid}/secret/rotate`, { token, body });

async function createHook(path: string): Promise<{ uid: string; secret: string }> {
  const res = await call("POST", "/api/v3/webhooks", {
    token: a.globalToken,
    body: { webhook: { name: "rotation", endpointUrl: receiver.url(path), events: ["message.status.sent"] } },
  });
  expect(res.status).toBe(200);
  const secret: string = res.body.signingSecret;
  receiver.route(path, secret);
  return { uid: res.body.data.webhookUid, secret };
}

/** Emits one event for the sender and waits until `path` has received it. */
async function deliverOne(path: string): Promise<Received> {
  const before = receiver.on(path).length;
  await emitEvents(db, [
    { sender: a.sender, type: "message.status.sent", dedupeKey: `rot:${randomBytes(8).toString("hex")}`, data: {} },
  ]);
  await waitFor(() => receiver.on(path).length > before, 10_000, "a delivery");
  return receiver.on(path)[before] as Received;
}

function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

describe("signing secret rotation", () => {
  it("returns the new secret once beside data; both secrets sign during the grace, only the new one after", async () => {
    const path = "/rot-grace";
    const { uid, secret: oldSecret } = await createHook(path);

    const before = Date.now();
    const res = await rotate(a.globalToken, uid);
    expect(res.status).toBe(200);
    const newSecret: string = res.body.signingSecret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(JSON.stringify(res.body.data)).not.toContain(newSecret.slice(6));
    expect(JSON.stringify(res.body.data)).not.toContain(oldSecret.slice(6));
    const expires = Date.parse(res.body.data.previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    expect(res.body.data.secretRotatedAt).toEqual(expect.any(String));

    // Stored encrypted only.
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(row.signingSecretEnc).not.toContain(newSecret.slice(6));
    expect(row.previousSigningSecretEnc).not.toContain(oldSecret.slice(6));
    expect(decryptSecret(row.signingSecretEnc)).toBe(newSecret);
    expect(decryptSecret(row.previousSigningSecretEnc as string)).toBe(oldSecret);

    // A later GET never shows a secret.
    const got = await call("GET", `/api/v3/webhooks/${uid}`, { token: a.globalToken });
    expect(got.body.signingSecret).toBeUndefined();
    expect(got.body.data.previousSecretExpiresAt).toBe(res.body.data.previousSecretExpiresAt);

    const during = await deliverOne(path);
    const entries = String(during.headers["webhook-signature"]).split(" ");
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(e).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifies(newSecret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);

    // The grace ends (moved into the past rather than waited for): one signature, the new one.
    await db.webhookDestination.update({
      where: { id: uid },
      data: { previousSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    const after = await deliverOne(path);
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);

    // ...and the previous secret is dropped.
    expect(await dropExpiredPreviousSecrets()).toBeGreaterThanOrEqual(1);
    const dropped = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(dropped.previousSigningSecretEnc).toBeNull();
    expect(dropped.previousSecretExpiresAt).toBeNull();
    const read = await call("GET", `/api/v3/webhooks/${uid}`, { token: a.globalToken });
    expect(read.body.data.previousSecretExpiresAt).toBeNull();
  });

  it("takes the grace from the request (up to 7 days; 0 drops the old secret at once) on v2 and v3", async () => {
    const path = "/rot-choice";
    const { uid, secret: first } = await createHook(path);

    const week = await rotate(a.globalToken, uid, { gracePeriodSeconds: 7 * 24 * 3600 }, "v2");
    expect(week.status).toBe(200);
    const expires = Date.parse(week.body.data.previousSecretExpiresAt);
    expect(Math.abs(expires - Date.now() - 7 * 24 * 3600_000)).toBeLessThan(60_000);

    for (const bad of [7 * 24 * 3600 + 1, -1, 1.5, "3600"]) {
      const res = await rotate(a.globalToken, uid, { gracePeriodSeconds: bad });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
    }

    const now = await rotate(a.globalToken, uid, { gracePeriodSeconds: 0 });
    expect(now.status).toBe(200);
    expect(now.body.data.previousSecretExpiresAt).toBeNull();
    const second: string = week.body.signingSecret;
    const third: string = now.body.signingSecret;
    const r = await deliverOne(path);
    expect(String(r.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(third, r)).toBe(true);
    expect(verifies(second, r)).toBe(false);
    expect(verifies(first, r)).toBe(false);
  });

  it("update never rotates; another tenant cannot rotate (WEBHOOK_NOT_FOUND)", async () => {
    const { uid, secret } = await createHook("/rot-tenant");
    const upd = await call("POST", `/api/v3/webhooks/${uid}`, {
      token: a.globalToken,
      body: { webhook: { name: "x" } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.signingSecret).toBeUndefined();
    const other = await rotate(b.globalToken, uid);
    expect(other.status).toBe(404);
    expect(other.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    const row = await db.webhookDestination.findUniqueOrThrow({ where: { id: uid } });
    expect(decryptSecret(row.signingSecretEnc)).toBe(secret);
    expect(row.previousSigningSecretEnc).toBeNull();
    expect((await rotate(a.globalToken, "no_such_hook")).body.error_code).toBe("WEBHOOK_NOT_FOUND");
  });
});
