// A stream's member checked per session (docs/inbox.md "Live updates"): the periodic check
// reads the stream's real session and keeps it (a ping after each check), and a change of
// the member's access ends their streams at once, from the database's notice, not at the
// next check: a removed member, a role or sender change, an ended session (only that
// session's streams), a suspended account; an expired session ends at the next check.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { isListening } from "@/lib/db/wakeups";
import { changeMember, removeMember } from "@/lib/domains/members/service";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { endSessionById } from "@/lib/domains/security/sessions";
import { createTestCustomer } from "@/test/factory";
import { graceFor } from "@/test/grace";
import { type LiveReader, readLive } from "@/test/live-reader";
import { createMemberOf, signedInSession, type TestMember } from "@/test/member-fixtures";
import { liveClientCount, setLiveCheckInterval } from "./hub";
import { openLiveStream } from "./stream";

type T = Awaited<ReturnType<typeof createTestCustomer>>;
let t: T;
let owner: TestMember;
const open: LiveReader[] = [];

async function streamOf(session: TestMember["session"]): Promise<LiveReader> {
  const p = await principalForSession(session);
  if (!p) throw new Error("no principal");
  const live = readLive(openLiveStream(p));
  open.push(live);
  // Access notices committed from now on reach it once the process's LISTEN is in place.
  await vi.waitFor(() => expect(isListening("live")).toBe(true), { timeout: 30_000 });
  await vi.waitFor(() => expect(live.of("ready")).toHaveLength(1));
  return live;
}

async function ownerPrincipal() {
  const p = await principalForSession(owner.session);
  if (!p) throw new Error("no principal");
  return p;
}

/** Resolves with the milliseconds from `since` to the stream's end; fails after 1 s. */
async function endsWithinOneSecond(live: LiveReader, since: number): Promise<number> {
  await vi.waitFor(() => expect(live.closed).toBe(true), { timeout: 1_000, interval: 10 });
  return Date.now() - since;
}

beforeAll(async () => {
  t = await createTestCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
  setLiveCheckInterval(15_000);
});
afterAll(() => setLiveCheckInterval(15_000));

describe("the periodic check", () => {
  it("reads the stream's real session and keeps it open past several checks, with a ping after each", async () => {
    setLiveCheckInterval(100);
    const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const live = await streamOf(agent.session);
    await vi.waitFor(() => expect(live.of("ping").length).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
    expect(live.closed).toBe(false);
    expect(live.of("end")).toEqual([]);
  });

  it("ends a stream whose session expired (nothing notified) at the next check", async () => {
    const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const live = await streamOf(agent.session);
    await db.userSession.update({
      where: { id: agent.session.sessionId },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    setLiveCheckInterval(100);
    await vi.waitFor(() => expect(live.closed).toBe(true), { timeout: 10_000 });
    expect(live.of("end").map((e) => e.data)).toEqual([{ reason: "signed-out" }]);
  });
});

describe("a change of access ends the member's streams at once", () => {
  it("a removed member's streams end within 1 s", async () => {
    setLiveCheckInterval(60_000); // no periodic check can be what ends it
    const gone = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const [first, second] = [await streamOf(gone.session), await streamOf(gone.session)];
    const bystander = await streamOf(owner.session);
    const before = liveClientCount();
    const at = Date.now();
    await removeMember(await ownerPrincipal(), gone.userId);
    await endsWithinOneSecond(first, at);
    await endsWithinOneSecond(second, at);
    expect(first.of("end").map((e) => e.data)).toEqual([{ reason: "signed-out" }]);
    expect(liveClientCount()).toBe(before - 2);
    expect(bystander.closed).toBe(false);
  });

  it("a role change ends the member's stream within 1 s (the browser reconnects under the new role)", async () => {
    setLiveCheckInterval(60_000);
    const member = await createMemberOf(t.customer.id, "admin");
    const live = await streamOf(member.session);
    const at = Date.now();
    await changeMember(await ownerPrincipal(), member.userId, { role: "billing", senders: [] });
    await endsWithinOneSecond(live, at);
    expect(live.of("end").map((e) => e.data)).toEqual([{ reason: "access-changed" }]);
    const again = await principalForSession(member.session);
    expect(again?.member?.role).toBe("billing");
  });

  it("an agent's new sender list ends their stream within 1 s", async () => {
    setLiveCheckInterval(60_000);
    const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const live = await streamOf(agent.session);
    const at = Date.now();
    await changeMember(await ownerPrincipal(), agent.userId, {
      role: "agent",
      senders: [t.sender.phoneNumber, t.otherSender.phoneNumber],
    });
    await endsWithinOneSecond(live, at);
    expect(live.of("end").map((e) => e.data)).toEqual([{ reason: "access-changed" }]);
  });

  it("a signed-out session's streams end within 1 s; the member's other session keeps its stream", async () => {
    setLiveCheckInterval(60_000);
    const member = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const laptop = await streamOf(member.session);
    const phone = await streamOf(await signedInSession(member.userId, t.customer.id, "phone"));
    const at = Date.now();
    await endSessionById(member.session.sessionId, "signed_out");
    await endsWithinOneSecond(laptop, at);
    expect(laptop.of("end").map((e) => e.data)).toEqual([{ reason: "signed-out" }]);
    await graceFor(300, "the other session's stream ending too");
    expect(phone.closed).toBe(false);
  });

  it("a suspended account's streams end within 1 s", async () => {
    setLiveCheckInterval(60_000);
    const other = await createTestCustomer();
    const member = await createMemberOf(other.customer.id, "owner");
    const live = await streamOf(member.session);
    const at = Date.now();
    await db.customer.update({ where: { id: other.customer.id }, data: { status: "SUSPENDED" } });
    await endsWithinOneSecond(live, at);
    expect(live.of("end").map((e) => e.data)).toEqual([{ reason: "signed-out" }]);
  });
});
