// The audit log end to end (docs/security.md "Audit log", docs/api/audit-events.md): entries
// written by real changes through the real router and services, read back through
// GET /audit-events; a change that fails leaves no entry; each account sees only its own;
// only a global token reads it; nothing secret is recorded; retention prunes old entries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/lib/cli/run";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { operatorPrincipal } from "@/lib/domains/auth/principal";
import { acceptInvitation, createInvitation } from "@/lib/domains/members/invitations";
import { changeMember, removeMember } from "@/lib/domains/members/service";
import { checkCredentials } from "@/lib/domains/security/credentials";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { issueToken, revokeToken, rotateToken } from "@/lib/domains/tokens/service";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { createMemberOf, latestLinkTo, type TestMember, tokenOf } from "@/test/member-fixtures";
import { looksSecret, REDACTED } from "./redact";
import { pruneAuditEvents } from "./retention";

recordApiAnswers();

let a: TestCustomer;
let b: TestCustomer;
let owner: TestMember;
let ownerP: Principal;
const UA = "audit-test/1.0 (integration)";
const secretsSeen: string[] = [];

const events = (c: TestCustomer, query: Record<string, string | number> = {}, version = "v3", token = c.globalToken) =>
  call("GET", `/api/${version}/audit-events`, { token, query });

const rowsOf = (customerId: string, action: string) =>
  db.auditEvent.findMany({ where: { customerId, action }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  secretsSeen.push(a.globalToken, a.scopedToken, b.globalToken);
  owner = await createMemberOf(a.customer.id, "owner");
  const p = await principalForSession(owner.session);
  if (!p) throw new Error("no principal for the owner");
  ownerP = { ...p, origin: { ip: "198.51.100.4", userAgent: UA } };
});
afterAll(async () => {
  await db.auditEvent.deleteMany({ where: { customerId: { in: [a.customer.id, b.customer.id] } } });
});

describe("recording", () => {
  it("a member's token creation: actor email, IP, user agent, the token's id as target, no secret", async () => {
    const { token, record } = await issueToken({ customerId: a.customer.id, name: "ci deploys" }, ownerP);
    secretsSeen.push(token);
    const [row] = await db.auditEvent.findMany({ where: { customerId: a.customer.id, targetUid: record.id } });
    expect(row).toMatchObject({
      action: "token.created",
      actorType: "member",
      actorEmail: owner.email,
      targetType: "token",
      ip: "198.51.100.4",
      userAgent: UA,
    });
    expect(row?.details).toMatchObject({ name: "ci deploys", prefix: record.prefix, scope: "global" });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(record.hash);
  });

  it("an API token's change names the token (name and prefix) and the request's address", async () => {
    const res = await call("POST", "/api/v3/webhooks", {
      token: a.globalToken,
      ip: "203.0.113.9",
      headers: { "user-agent": UA },
      body: {
        webhook: {
          name: "audited",
          endpointUrl: "https://example.com/hook",
          events: ["message.status.sent"],
          verificationHeaderKey: "X-Check",
          verificationToken: "very-private-verification-value",
        },
      },
    });
    expect(res.status).toBe(200);
    secretsSeen.push(res.body.signingSecret, "very-private-verification-value");
    const uid: string = res.body.data.webhookUid;
    const listed = await events(a, { action: "webhook.created", targetUid: uid });
    expect(listed.status).toBe(200);
    expect(listed.body.data.auditEvents).toHaveLength(1);
    expect(listed.body.data.items).toEqual(listed.body.data.auditEvents);
    expect(listed.body.data.auditEvents[0]).toMatchObject({
      action: "webhook.created",
      actor: { type: "api_token", tokenName: "global", tokenPrefix: a.globalToken.slice(0, 13) },
      target: { type: "webhook", uid },
      ip: "203.0.113.9",
      userAgent: UA,
    });
    const rotated = await call("POST", `/api/v3/webhooks/${uid}/secret/rotate`, { token: a.globalToken, body: {} });
    expect(rotated.status).toBe(200);
    secretsSeen.push(rotated.body.signingSecret ?? rotated.body.data?.signingSecret);
    expect((await rowsOf(a.customer.id, "webhook.secret_rotated")).map((r) => r.targetUid)).toEqual([uid]);
  });

  it("the operator CLI's changes are `operator`; rotation and revocation are recorded once", async () => {
    const { token, record } = await issueToken(
      { customerId: a.customer.id, name: "ops" },
      operatorPrincipal(a.customer.id),
    );
    const rotated = await rotateToken(operatorPrincipal(a.customer.id), record.id, { graceHours: 0 });
    secretsSeen.push(token, rotated.token);
    await revokeToken(ownerP, rotated.successor.id);
    await revokeToken(ownerP, rotated.successor.id); // a repeat changes nothing: no second entry
    const created = await db.auditEvent.findFirst({ where: { customerId: a.customer.id, targetUid: record.id } });
    expect(created).toMatchObject({ action: "token.created", actorType: "operator", actorEmail: null, ip: null });
    expect(await rowsOf(a.customer.id, "token.rotated")).toMatchObject([
      { targetUid: record.id, actorType: "operator" },
    ]);
    const revoked = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, action: "token.revoked", targetUid: rotated.successor.id },
    });
    expect(revoked).toHaveLength(1);
  });

  it("sign-ins: a wrong password and a success, on the member's account", async () => {
    const origin = { ip: "192.0.2.1", userAgent: UA };
    expect(await checkCredentials(owner.email, "not-the-password", origin)).toBeNull();
    expect(await checkCredentials(owner.email, owner.password, origin)).not.toBeNull();
    const failed = await rowsOf(a.customer.id, "member.sign_in_failed");
    const ok = await rowsOf(a.customer.id, "member.signed_in");
    expect(failed.at(-1)).toMatchObject({ actorEmail: owner.email, targetUid: owner.email, ip: "192.0.2.1" });
    expect(ok.at(-1)).toMatchObject({ actorEmail: owner.email, userAgent: UA });
    expect(JSON.stringify([...failed, ...ok])).not.toContain("not-the-password");
  });

  it("blacklist additions and removals through the API", async () => {
    const phone = "+15550009876";
    const add = await call("POST", "/api/v3/blacklist", { token: a.globalToken, body: { phoneNumber: phone } });
    expect(add.status).toBe(200);
    const rm = await call("POST", "/api/v3/blacklist/remove", { token: a.globalToken, body: { phoneNumber: phone } });
    expect(rm.body.data.removed).toBe(true);
    expect((await rowsOf(a.customer.id, "blacklist.added")).map((r) => r.targetUid)).toEqual([phone]);
    expect((await rowsOf(a.customer.id, "blacklist.removed")).map((r) => r.targetUid)).toEqual([phone]);
  });
});

describe("members, senders and chatbots", () => {
  it("invited, joined (the new member is the actor), role changed, removed", async () => {
    const to = `joiner-${Date.now()}@example.test`;
    await createInvitation(ownerP, { email: to, role: "developer", senders: [] });
    const joined = await acceptInvitation(
      tokenOf(await latestLinkTo(to)),
      { password: "a-long-password" },
      {
        ip: "192.0.2.50",
        userAgent: UA,
      },
    );
    const user = await db.user.findFirstOrThrow({ where: { email: joined.email } });
    await changeMember(ownerP, user.id, { role: "admin", senders: [] });
    await removeMember(ownerP, user.id);
    const trail = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, targetUid: to },
      orderBy: { createdAt: "asc" },
    });
    expect(trail.map((r) => [r.action, r.actorEmail])).toEqual([
      ["member.invited", owner.email],
      ["member.joined", to],
      ["member.role_changed", owner.email],
      ["member.removed", owner.email],
    ]);
    expect(trail[1]).toMatchObject({ ip: "192.0.2.50" });
    expect(trail[2]?.details).toMatchObject({ from: "developer", to: "admin" });
  });

  it("a sender made default and a chatbot activated through the API", async () => {
    const res = await call("POST", `/api/v3/senders/${encodeURIComponent(a.otherSender.phoneNumber)}/default`, {
      token: a.globalToken,
    });
    expect(res.status).toBe(200);
    expect(await rowsOf(a.customer.id, "sender.default_changed")).toMatchObject([
      { targetUid: a.otherSender.phoneNumber, actorType: "api_token" },
    ]);
    const bot = await call("POST", "/api/v3/chatbots", {
      token: a.globalToken,
      body: {
        senderId: a.sender.phoneNumber,
        chatbot: {
          name: "audited bot",
          rules: [{ match: { type: "keyword", value: "hi" }, reply: { type: "text", text: "Hello" } }],
        },
      },
    });
    expect(bot.status).toBe(201);
    const uid: string = bot.body.data.chatbotUid;
    const on = await call("POST", `/api/v3/chatbots/${uid}`, {
      token: a.globalToken,
      body: { senderId: a.sender.phoneNumber, chatbot: { status: "ACTIVE" } },
    });
    expect(on.status).toBe(200);
    const trail = await db.auditEvent.findMany({ where: { targetUid: uid }, orderBy: { createdAt: "asc" } });
    expect(trail.map((r) => r.action)).toEqual(["chatbot.created", "chatbot.activated"]);
  });
});

describe("the operator CLI", () => {
  it("user:create, token:create and sender:default are recorded as `operator`", async () => {
    const run = (...args: string[]) => runCli([...args, "--json"], { out: () => {}, err: () => {} });
    const to = `cli-${Date.now()}@example.test`;
    const c = b.customer.id;
    expect(await run("user:create", "--customer", c, "--email", to, "--password", "a long password")).toBe(0);
    expect(await run("token:create", "--customer", c, "--name", "from the cli")).toBe(0);
    expect(await run("sender:default", "--customer", c, "--phone", b.otherSender.phoneNumber)).toBe(0);
    const rows = await db.auditEvent.findMany({ where: { customerId: c, actorType: "operator" } });
    expect(rows.map((r) => [r.action, r.actorEmail, r.ip]).sort()).toEqual([
      ["member.joined", null, null],
      ["sender.default_changed", null, null],
      ["token.created", null, null],
    ]);
    expect(rows.find((r) => r.action === "member.joined")?.targetUid).toBe(to);
  });
});

describe("same transaction", () => {
  it("a webhook update that is rolled back leaves no webhook.updated entry", async () => {
    const created = await call("POST", "/api/v3/webhooks", {
      token: a.globalToken,
      body: { webhook: { name: "rollback", endpointUrl: "https://example.com/r", events: ["message.status.sent"] } },
    });
    secretsSeen.push(created.body.signingSecret);
    const uid: string = created.body.data.webhookUid;
    // A verification token with no header name is refused inside the transaction, after the write.
    const refused = await call("POST", `/api/v3/webhooks/${uid}`, {
      token: a.globalToken,
      body: { webhook: { name: "renamed", verificationToken: "would-be-token" } },
    });
    expect(refused.status).toBe(400);
    const row = await db.webhookDestination.findFirst({ where: { id: uid } });
    expect(row?.name).toBe("rollback");
    expect(
      await db.auditEvent.count({ where: { customerId: a.customer.id, targetUid: uid, action: "webhook.updated" } }),
    ).toBe(0);
  });

  it("demoting the last owner is refused and writes no member.role_changed entry", async () => {
    const before = await db.auditEvent.count({ where: { customerId: a.customer.id, action: "member.role_changed" } });
    await expect(changeMember(ownerP, owner.userId, { role: "admin", senders: [] })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await db.auditEvent.count({ where: { customerId: a.customer.id, action: "member.role_changed" } })).toBe(
      before,
    );
  });

  it("a refused token rotation (revoked token) writes no token.rotated entry", async () => {
    const { record } = await issueToken({ customerId: a.customer.id, name: "gone" }, ownerP);
    await revokeToken(ownerP, record.id);
    await expect(rotateToken(ownerP, record.id)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.auditEvent.count({ where: { targetUid: record.id, action: "token.rotated" } })).toBe(0);
  });
});

describe("GET /audit-events", () => {
  it("answers on v2 and v3, newest first, page-based", async () => {
    for (const version of ["v2", "v3"]) {
      const all = await events(a, {}, version);
      expect(all.status).toBe(200);
      const times: string[] = all.body.data.auditEvents.map((e: { createdAt: string }) => e.createdAt);
      expect(times).toEqual([...times].sort().reverse());
      expect(all.body.data.pagination).toMatchObject({ page: 1, limit: 50, total: times.length, hasMore: false });
    }
    const first = await events(a, { limit: 1 });
    const second = await events(a, { limit: 1, page: 2 });
    expect(first.body.data.pagination).toMatchObject({ count: 1, hasMore: true });
    expect(second.body.data.auditEvents[0].auditEventUid).not.toBe(first.body.data.auditEvents[0].auditEventUid);
    expect((await events(a, { limit: 500 })).body.data.pagination.limit).toBe(100);
  });

  it("filters by actor (email, token prefix, operator), action and dates", async () => {
    const byEmail = await events(a, { actor: owner.email.toUpperCase() });
    expect(byEmail.body.data.auditEvents.length).toBeGreaterThan(0);
    expect(
      byEmail.body.data.auditEvents.every((e: { actor: { email?: string } }) => e.actor.email === owner.email),
    ).toBe(true);
    const byPrefix = await events(a, { actor: a.globalToken.slice(0, 13) });
    expect(byPrefix.body.data.auditEvents.map((e: { actor: { type: string } }) => e.actor.type)).toContain("api_token");
    const byOperator = await events(a, { actor: "operator" });
    expect(byOperator.body.data.auditEvents.map((e: { action: string }) => e.action).sort()).toEqual([
      "token.created",
      "token.rotated",
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await events(a, { dateFrom: today, dateTo: today })).body.data.pagination.total).toBe(
      (await events(a)).body.data.pagination.total,
    );
    expect((await events(a, { dateTo: "2020-01-01" })).body.data.pagination.total).toBe(0);
    expect((await events(a, { dateFrom: "2999-01-01T00:00:00Z" })).body.data.pagination.total).toBe(0);
  });

  it("refuses an unknown action, a malformed date and dates out of order", async () => {
    const refused: Record<string, string>[] = [
      { action: "token.stolen" },
      { dateFrom: "yesterday" },
      { dateFrom: "2026-02-02", dateTo: "2026-02-01" },
    ];
    for (const query of refused) {
      const res = await events(a, query);
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
    }
  });

  it("scoping: another account sees none of these entries", async () => {
    const mine = await events(a);
    const theirs = await events(b, { limit: 100 });
    expect(theirs.status).toBe(200);
    const ours = new Set(mine.body.data.auditEvents.map((e: { auditEventUid: string }) => e.auditEventUid));
    expect(theirs.body.data.auditEvents.some((e: { auditEventUid: string }) => ours.has(e.auditEventUid))).toBe(false);
    const target = mine.body.data.auditEvents[0].target.uid;
    expect((await events(b, { targetUid: target })).body.data.pagination.total).toBe(0);
  });

  it("the global-token rule: a number-scoped token is TOKEN_SCOPE_NOT_ALLOWED; no token is MISSING_AUTH_TOKEN", async () => {
    for (const version of ["v2", "v3"]) {
      const res = await events(a, {}, version, a.scopedToken);
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    }
    const anonymous = await call("GET", "/api/v3/audit-events");
    expect(anonymous.status).toBe(401);
  });

  it("no entry holds a secret: not a token, a signing secret or a verification value, and no secret-named field", async () => {
    const rows = await db.auditEvent.findMany({ where: { customerId: a.customer.id } });
    expect(rows.length).toBeGreaterThan(8);
    const walk = (value: unknown, key = ""): void => {
      if (/secret|password|hash|^token$/i.test(key)) expect(value).toBe(REDACTED);
      if (typeof value === "string") {
        expect(looksSecret(value), `${key}: ${value}`).toBe(false);
        for (const s of secretsSeen) expect(value).not.toContain(s);
      } else if (Array.isArray(value)) {
        for (const v of value) walk(v, key);
      } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
    };
    for (const row of rows) walk({ ...row, createdAt: undefined });
  });
});

describe("retention", () => {
  it("deletes entries older than AUDIT_RETENTION_DAYS and keeps the rest", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 400 * 86_400_000);
    const edge = new Date(now.getTime() - 364 * 86_400_000);
    const base = {
      customerId: b.customer.id,
      actorType: "system" as const,
      targetType: "test",
      action: "token.created",
    };
    await db.auditEvent.createMany({
      data: [
        { ...base, targetUid: "old", createdAt: old },
        { ...base, targetUid: "recent", createdAt: edge },
      ],
    });
    expect(await pruneAuditEvents(now, 365)).toBeGreaterThanOrEqual(1);
    const left = await db.auditEvent.findMany({ where: { customerId: b.customer.id, targetType: "test" } });
    expect(left.map((r) => r.targetUid)).toEqual(["recent"]);
  });
});
