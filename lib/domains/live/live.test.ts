// The live stream end to end in one process (docs/inbox.md "Live updates"): a change
// committed by the callback processor, the send path or the conversation service reaches
// the open streams of the members allowed to see it, and only them; a notice committed on
// another connection (another instance) reaches this process's streams, and this
// process's notices reach another listener on the same database; a rolled-back write
// tells no one. How a stream's member is checked: access.test.ts.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { CHANNELS, isListening } from "@/lib/db/wakeups";
import { markConversationRead } from "@/lib/domains/conversations/service";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { graceFor } from "@/test/grace";
import { type LiveReader, readLive } from "@/test/live-reader";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { otherConnection } from "@/test/other-connection";
import type { LiveEvent } from "./events";
import { livePayloads, MAX_PAYLOAD_BYTES, publishLive } from "./publish";
import { openLiveStream } from "./stream";

type T = Awaited<ReturnType<typeof createTestCustomer>>;
let t: T;
const m = {} as Record<"owner" | "agentA" | "agentB" | "billing", TestMember>;
const open: LiveReader[] = [];

async function principalOf(member: TestMember) {
  const p = await principalForSession(member.session);
  if (!p) throw new Error("no principal");
  return p;
}

async function streamOf(member: TestMember): Promise<LiveReader> {
  const p = await principalForSession(member.session);
  if (!p) throw new Error("no principal");
  const live = readLive(openLiveStream(p));
  open.push(live);
  // Notices committed from now on reach it once the process's LISTEN is in place.
  // After a test that cut the connection, the reconnect backs off: allow for it on a loaded machine.
  await vi.waitFor(() => expect(isListening("live")).toBe(true), { timeout: 30_000 });
  return live;
}

beforeAll(async () => {
  t = await createTestCustomer();
  m.owner = await createMemberOf(t.customer.id, "owner");
  m.agentA = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  m.agentB = await createMemberOf(t.customer.id, "agent", [t.otherSender.phoneNumber]);
  m.billing = await createMemberOf(t.customer.id, "billing");
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
});

describe("live stream", () => {
  it("opens with ready, so the page refetches what it shows, and asks for a refetch once its LISTEN is in place", async () => {
    const live = await streamOf(m.owner);
    expect(live.events[0]).toEqual({ event: "ready", data: { heartbeatMs: 15_000 } });
    // The first stream of the process started the subscription: anything committed before
    // its LISTEN was in place is refetched (a reconnection of the listener does the same).
    await vi.waitFor(() => expect(live.of("resync").length).toBe(1));
  });

  it("an inbound message reaches the members allowed to see its sender, and only them", async () => {
    const [owner, agentA, agentB, billing] = await Promise.all([
      streamOf(m.owner),
      streamOf(m.agentA),
      streamOf(m.agentB),
      streamOf(m.billing),
    ]);
    await contactWrites(t.sender, uniquePhone(), "Is my order on its way?");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { senderId: t.sender.id },
      orderBy: { createdAt: "desc" },
    });
    const expected = {
      kind: "message.created",
      senderId: t.sender.id,
      conversationUid: conversation.id,
      unreadCount: 1,
    };
    await vi.waitFor(() => expect(owner.of("message.created").map((e) => e.data)).toContainEqual(expected));
    await vi.waitFor(() => expect(agentA.of("message.created").map((e) => e.data)).toContainEqual(expected));
    await graceFor(300, "a notice about sender A reaching the agent of sender B or the billing member");
    expect(agentB.of("message.created")).toEqual([]);
    expect(billing.of("message.created")).toEqual([]);

    // Reading it is a change the other tabs show too (the badge), for the same members.
    await markConversationRead(await principalOf(m.agentA), undefined, conversation.id);
    await vi.waitFor(() =>
      expect(owner.of("conversation.changed").map((e) => e.data)).toContainEqual(
        expect.objectContaining({ conversationUid: conversation.id, unreadCount: 0 }),
      ),
    );
    await graceFor(200, "the read notice reaching the agent of the other sender");
    expect(agentB.of("conversation.changed")).toEqual([]);
  });

  it("a broadcast's progress reaches the roles that may see broadcasts, not agents", async () => {
    const [owner, agentA] = await Promise.all([streamOf(m.owner), streamOf(m.agentA)]);
    const progress: LiveEvent = {
      kind: "broadcast.progress",
      senderId: t.sender.id,
      broadcastUid: "bc_test",
      status: "SENDING",
      total: 10,
      sent: 3,
      failed: 0,
    };
    await publishLive(db, t.customer.id, [progress]);
    await vi.waitFor(() => expect(owner.of("broadcast.progress").map((e) => e.data)).toEqual([progress]));
    await graceFor(200, "a broadcast notice reaching an agent (no broadcasts permission)");
    expect(agentA.of("broadcast.progress")).toEqual([]);
  });

  it("another customer's notices never reach a stream", async () => {
    const owner = await streamOf(m.owner);
    const other = await createTestCustomer();
    await contactWrites(other.sender, uniquePhone());
    await graceFor(300, "another customer's inbound reaching this customer's stream");
    expect(owner.of("message.created")).toEqual([]);
  });

  it("a notice committed on another connection (another instance) reaches this process's streams", async () => {
    const owner = await streamOf(m.owner);
    const event: LiveEvent = { kind: "message.created", senderId: t.sender.id, conversationUid: "conv_elsewhere" };
    await otherConnection(async (client) => {
      const [payload] = livePayloads(t.customer.id, [event]);
      await client.query("BEGIN");
      await client.query("SELECT pg_notify($1, $2)", [CHANNELS.live, payload]);
      await client.query("COMMIT");
    });
    await vi.waitFor(() => expect(owner.of("message.created").map((e) => e.data)).toEqual([event]));
  });

  it("this process's commits reach another listener on the same database, and a rollback reaches no one", async () => {
    await otherConnection(async (client) => {
      const heard: string[] = [];
      client.on("notification", (n) => {
        if (n.channel === CHANNELS.live) heard.push(n.payload ?? "");
      });
      await client.query(`LISTEN ${CHANNELS.live}`);
      const marker = `conv_${Date.now()}`;
      const event: LiveEvent = { kind: "conversation.changed", senderId: t.sender.id, conversationUid: marker };
      await db
        .$transaction(async (tx) => {
          await publishLive(tx, t.customer.id, [{ ...event, conversationUid: `${marker}_rolled_back` }]);
          throw new Error("roll back");
        })
        .catch(() => {});
      await db.$transaction((tx) => publishLive(tx, t.customer.id, [event]));
      await vi.waitFor(() => expect(heard.some((h) => h.includes(marker))).toBe(true));
      await graceFor(200, "the rolled-back notice arriving after the committed one");
      expect(heard.some((h) => h.includes(`${marker}_rolled_back`))).toBe(false);
    });
  });

  it("after the listening connection drops and comes back, the streams are told to refetch, and notices flow again", async () => {
    const owner = await streamOf(m.owner);
    const resyncs = owner.of("resync").length;
    // Cut the process's listening connection as a network failure would.
    const state = (
      globalThis as { __switchboardWakeups?: { client?: { connection: { stream: { destroy(): void } } } } }
    ).__switchboardWakeups;
    state?.client?.connection.stream.destroy();
    await vi.waitFor(() => expect(owner.of("resync").length).toBeGreaterThan(resyncs), { timeout: 10_000 });
    await vi.waitFor(() => expect(isListening("live")).toBe(true));
    const event: LiveEvent = { kind: "conversation.changed", senderId: t.sender.id, conversationUid: "conv_after" };
    await publishLive(db, t.customer.id, [event]);
    await vi.waitFor(() => expect(owner.of("conversation.changed").map((e) => e.data)).toEqual([event]));
  });
});

describe("live payloads", () => {
  it("packs notices into payloads under NOTIFY's 8000-byte limit", () => {
    const events: LiveEvent[] = Array.from({ length: 500 }, (_, i) => ({
      kind: "message.status",
      senderId: "snd_x",
      messageId: `wamid.${"x".repeat(40)}${i}`,
      status: "delivered",
    }));
    const payloads = livePayloads("cus_x", events);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payloads.flatMap((p) => JSON.parse(p).e)).toEqual(events);
  });
});
