// The recovery panel's polling route (GET /api/dashboard/webhooks/{uid}/recoveries/{recoveryUid},
// ./webhooks.ts) on a real database: the signed-in customer reads its job's progress; another customer's
// session gets WEBHOOK_NOT_FOUND, an unknown job WEBHOOK_RECOVERY_NOT_FOUND, no session 401.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/domains/auth/principal";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { nextRequest } from "@/test/next-request-double";

const { GET } = await import("@/app/api/dashboard/[...path]/route");

const principalOf = (t: TestCustomer): Principal =>
  ({
    customerId: t.customer.id,
    plan: "pro",
    via: "session",
    userId: "u",
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: "u", email: "u@example.com", name: null, role: "owner", senderIds: null },
  }) as Principal;
const read = (t: TestCustomer, uid: string, recoveryUid: string) =>
  GET(
    new Request(
      `http://dash.test/api/dashboard/webhooks/${uid}/recoveries/${recoveryUid}?sender=${encodeURIComponent(t.sender.phoneNumber)}`,
      {
        headers: { Host: "dash.test" },
      },
    ),
  );

let a: TestCustomer;
let b: TestCustomer;
let uid: string;
let job: string;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  const hook = await call("POST", "/api/v3/webhooks", {
    token: a.globalToken,
    body: { webhook: { name: "dash", endpointUrl: "https://example.com/in", events: ["message.status.sent"] } },
  });
  uid = hook.body.data.webhookUid;
  const res = await call("POST", `/api/v3/webhooks/${uid}/recover`, {
    token: a.globalToken,
    body: { since: new Date(Date.now() - 3600_000).toISOString() },
  });
  job = res.body.data.recoveryUid;
});

describe("dashboard recovery progress", () => {
  it("answers the job to its customer only", async () => {
    nextRequest.principal = principalOf(a);
    const mine = await read(a, uid, job);
    expect(mine.status).toBe(200);
    expect((await mine.json()).data.recovery).toMatchObject({ recoveryUid: job, webhookUid: uid, status: "QUEUED" });
    const unknown = await read(a, uid, "rcv_nosuch");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error_code).toBe("WEBHOOK_RECOVERY_NOT_FOUND");

    nextRequest.principal = principalOf(b);
    const theirs = await read(b, uid, job);
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).error_code).toBe("WEBHOOK_NOT_FOUND");

    nextRequest.principal = undefined;
    expect((await read(a, uid, job)).status).toBe(401);
  });
});

describe("the plan", () => {
  // Why the panel has its own route: the public GET is held to plans with the webhooks feature,
  // and the dashboard checks no plan feature (a starter account's page starts recoveries too).
  it("answers a starter account's member, where the public route refuses a starter token", async () => {
    nextRequest.principal = { ...principalOf(a), plan: "starter" } as Principal;
    const res = await read(a, uid, job);
    expect(res.status).toBe(200);
    expect((await res.json()).data.recovery).toMatchObject({ recoveryUid: job });
  });
});
