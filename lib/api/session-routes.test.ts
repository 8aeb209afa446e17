// The router's session path (docs/dashboard.md "Data the browser holds"): a route marked
// `session` is served under /api/dashboard to the signed-in member holding its permission, with
// the dashboard's guard first; no other route is, no token is read there, and a member reaches
// only their own account. The session is loaded by the real lookup (principalForSession) and
// checked by the real guard functions; only next-auth's cookie reading is left out.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { guardMutation, guardSameOrigin } from "@/lib/dashboard/request-guard";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Permission } from "@/lib/domains/auth/permissions";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { uniquePhone } from "@/test/factory";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { dashboardRoutes } from "./dashboard-route-table";
import { route } from "./route-definition";
import { routes } from "./route-table";
import { createRouter, type SessionAuth } from "./router";

const ORIGIN = "http://dash.test";
const SAME = { Host: "dash.test", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };

/** The member the next request carries, and how often the session was read. */
const state = { member: null as TestMember | null, asked: 0 };
const session: SessionAuth = {
  guard: (request, body) => (body === "multipart" ? guardSameOrigin(request) : guardMutation(request)),
  member: async (permission: Permission) => {
    state.asked += 1;
    const p = state.member ? await principalForSession(state.member.session) : null;
    if (!p) throw new ApiError("UNAUTHORIZED", "Sign in to continue");
    assertPermission(p, permission);
    return p;
  },
};
const router = createRouter(routes);
const send = (path: string, init: RequestInit = {}, withSession = true) =>
  router(new Request(`${ORIGIN}${path}`, { headers: { Host: "dash.test" }, ...init }), {
    clientIp: "203.0.113.9",
    ...(withSession ? { session } : {}),
  });
const post = (path: string, body: unknown, headers: Record<string, string> = SAME) =>
  send(path, { method: "POST", headers, body: JSON.stringify(body) });

type T = Awaited<ReturnType<typeof messagingCustomer>>;
let t: T;
let other: T;
let agent: TestMember;
let billing: TestMember;
let stranger: TestMember;
let uid: string;
beforeAll(async () => {
  t = await messagingCustomer();
  other = await messagingCustomer();
  agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  billing = await createMemberOf(t.customer.id, "billing");
  stranger = await createMemberOf(other.customer.id, "owner");
  const contact = uniquePhone();
  await contactWrites(t.sender, contact, "Where is my parcel?");
  uid = (await db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } })).id;
});

describe("a session route", () => {
  it("answers the member as it answers a token: the same route, the API's envelope", async () => {
    state.member = agent;
    const written = await post(`/api/dashboard/conversations/${uid}/notes`, { note: { text: "Called them" } });
    expect(written.status).toBe(201);
    expect(await written.json()).toMatchObject({
      success: true,
      data: { text: "Called them", author: { type: "member", email: agent.email } },
    });
    const listed = await send(`/api/dashboard/conversations/${uid}/notes`);
    expect(listed.status).toBe(200);
    const viaToken = await router(
      new Request(`${ORIGIN}/api/v3/conversations/${uid}/notes`, {
        headers: { Authorization: `Bearer ${t.globalToken}` },
      }),
      { clientIp: "203.0.113.9" },
    );
    const { metadata: _a, ...bySession } = await listed.json();
    const { metadata: _b, ...byToken } = await viaToken.json();
    expect(bySession).toEqual(byToken);
    expect(bySession.data.notes).toHaveLength(1);
  });

  it("a reply is sent as the member, recorded as the dashboard's with their email", async () => {
    state.member = agent;
    const res = await post(`/api/dashboard/conversations/${uid}/messages`, {
      message: { type: "text", text: { body: "On its way" } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await res.json();
    const thread = await router(
      new Request(`${ORIGIN}/api/v3/conversations/${uid}/messages`, {
        headers: { Authorization: `Bearer ${t.globalToken}` },
      }),
      { clientIp: "203.0.113.9" },
    );
    expect((await thread.json()).data.messages[0]).toMatchObject({
      messageUid: data.messageUid,
      sentBy: "dashboard",
      sentByLabel: agent.email,
    });
  });

  it("without a session is 401, without the permission 403 naming it", async () => {
    state.member = null;
    const none = await send(`/api/dashboard/conversations/${uid}/notes`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ success: false, error_code: "UNAUTHORIZED" });
    state.member = billing;
    const refused = await post(`/api/dashboard/conversations/${uid}/notes`, { note: { text: "x" } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error_code: "PERMISSION_DENIED", details: { permission: "inbox" } });
  });

  it("reads no token: a bearer token without a session is 401", async () => {
    state.member = null;
    const res = await send(`/api/dashboard/conversations/${uid}/notes`, {
      headers: { Host: "dash.test", Authorization: `Bearer ${t.globalToken}` },
    });
    expect(res.status).toBe(401);
  });

  it("another account's member reaches nothing, and writes nothing", async () => {
    state.member = stranger;
    const before = await db.message.count({ where: { customerId: t.customer.id } });
    const read = await send(`/api/dashboard/conversations/${uid}/notes`);
    expect(read.status).toBe(404);
    expect((await read.json()).error_code).toBe("CONVERSATION_NOT_FOUND");
    const reply = await post(`/api/dashboard/conversations/${uid}/messages`, {
      message: { type: "text", text: { body: "hi" } },
    });
    expect(reply.status).toBe(404);
    const note = await post(`/api/dashboard/conversations/${uid}/notes`, { note: { text: "x" } });
    expect(note.status).toBe(404);
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(before);
    state.member = agent;
    const notes = await (await send(`/api/dashboard/conversations/${uid}/notes`)).json();
    expect(notes.data.notes.map((n: { text: string }) => n.text)).toEqual(["Called them"]);
  });

  it("a cross-site or non-JSON mutation is refused before the session is read", async () => {
    state.member = agent;
    state.asked = 0;
    const path = `/api/dashboard/conversations/${uid}/notes`;
    const cross = await post(path, { note: { text: "x" } }, { ...SAME, Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toMatchObject({ success: false, error_code: "CROSS_ORIGIN_REQUEST" });
    const plain = await post(path, { note: { text: "x" } }, { ...SAME, "Content-Type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(state.asked).toBe(0);
  });
});

describe("what the session path serves", () => {
  it("only routes marked session: another route of the table is 404 there", async () => {
    state.member = agent;
    // The API's list (the dashboard's own list is in the other table, not mounted here; the
    // thread's path now has the update marked session, so its GET would be 405).
    const res = await send("/api/dashboard/conversations");
    expect(res.status).toBe(404);
    expect((await res.json()).error_code).toBe("NOT_FOUND");
  });

  it("nothing without the dashboard's mount (the front and lean servers pass no session)", async () => {
    state.member = agent;
    const res = await send(`/api/dashboard/conversations/${uid}/notes`, {}, false);
    expect(res.status).toBe(404);
  });

  it("a session route names its permission, or the router refuses to start", () => {
    const open = route({
      method: "GET",
      path: "/open",
      versions: ["v3"],
      summary: "Open",
      tag: "Test",
      limit: "global",
      session: true,
      handler: async () => ({ message: "ok", data: null }),
    });
    expect(() => createRouter([open])).toThrow(/names its permission/);
  });
});

// The routes only the dashboard calls (lib/api/dashboard-route-table.ts): the session path's as
// the public table's session routes are, and nothing at all to a token.
describe('the dashboard\'s own routes (session: "only")', () => {
  const both = createRouter([...routes, ...dashboardRoutes]);
  const viaToken = (version: string, path: string) =>
    both(
      new Request(`${ORIGIN}/api/${version}${path}`, {
        headers: { Host: "dash.test", Authorization: `Bearer ${t.globalToken}` },
      }),
      { clientIp: "203.0.113.9" },
    );
  const viaSession = (path: string) =>
    both(new Request(`${ORIGIN}/api/dashboard${path}`, { headers: { Host: "dash.test" } }), {
      clientIp: "203.0.113.9",
      session,
    });

  it("are served to the member holding the permission, in the API's envelope", async () => {
    state.member = agent;
    const res = await viaSession(`/conversations/${uid}/assignees`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, data: { members: expect.any(Array) } });
    expect((body.data.members as { email: string }[]).map((m) => m.email)).toContain(agent.email);
    state.member = billing;
    const denied = await viaSession("/saved-replies");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error_code: "PERMISSION_DENIED", details: { permission: "inbox" } });
    state.member = null;
    expect((await viaSession("/saved-replies")).status).toBe(401);
  });

  it("are no route at all for a token, on any version", async () => {
    for (const version of ["v2", "v3"]) {
      const res = await viaToken(version, "/saved-replies");
      expect(res.status).toBe(404);
      expect((await res.json()).error_code).toBe("NOT_FOUND");
      expect((await viaToken(version, `/conversations/${uid}/assignees`)).status).toBe(404);
    }
  });

  it('are not in the public table, and each is marked session: "only"', () => {
    expect(dashboardRoutes.length).toBeGreaterThan(0);
    for (const r of dashboardRoutes) expect(r.session, `${r.method} ${r.path}`).toBe("only");
    expect(routes.filter((r) => r.session === "only")).toEqual([]);
  });

  it("a method and path defined twice for one audience stops the router", () => {
    expect(() => createRouter([...dashboardRoutes, ...dashboardRoutes.slice(0, 1)])).toThrow(
      /defined twice for the dashboard/,
    );
  });
});
