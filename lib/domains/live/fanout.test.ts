// The live fan-out under a sustained rate (docs/inbox.md "Live updates"): many streams each
// receive every notice of inbound messages posted at a steady rate through the real
// provider endpoint and the callback processor, with no session read per stream or per
// notice (the periodic check reads once per session); a stream whose reader stalls is cut off
// and neither holds back nor costs the others a notice. Target (f) at full size: bench/live.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { isListening } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { startCallbackProcessor } from "@/lib/ingest/processor";
import { inboundBody, postSigned } from "@/test/conversation-fixtures";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { type LiveReader, readLive } from "@/test/live-reader";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import type { LiveEvent } from "./events";
import { liveClientCount, setLiveCheckInterval } from "./hub";
import { publishLive } from "./publish";
import { openLiveStream } from "./stream";

// Every session read the hub makes goes through principalForSession: counted.
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/domains/security/session-principal", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/domains/security/session-principal")>();
  return {
    ...real,
    principalForSession: (...args: Parameters<typeof real.principalForSession>) => {
      reads.count += 1;
      return real.principalForSession(...args);
    },
  };
});

type T = Awaited<ReturnType<typeof createTestCustomer>>;
let t: T;
let owner: TestMember;
let agent: TestMember;
const open: LiveReader[] = [];
const stalled: ReadableStream<Uint8Array>[] = [];

async function principalOf(member: TestMember): Promise<Principal> {
  const p = await principalForSession(member.session);
  if (!p) throw new Error("no principal");
  return p;
}

/** `n` streams, alternately of the owner and of the agent of the sender, each at its `ready`. */
async function streams(n: number): Promise<LiveReader[]> {
  const principals = [await principalOf(owner), await principalOf(agent)];
  const out = Array.from({ length: n }, (_, i) => readLive(openLiveStream(principals[i % 2] as Principal)));
  open.push(...out);
  await vi.waitFor(() => expect(isListening("live")).toBe(true), { timeout: 30_000 });
  await vi.waitFor(() => expect(out.filter((s) => s.of("ready").length === 1)).toHaveLength(n));
  return out;
}

/** Per stream, how many of these conversations' `message.created` it has not received. */
const missingPer = (live: LiveReader[], uids: string[]) =>
  live.map((s) => {
    const got = new Set(s.of("message.created").map((e) => e.data.conversationUid));
    return uids.filter((uid) => !got.has(uid)).length;
  });

beforeAll(async () => {
  t = await createTestCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
  agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  // No periodic check during the fan-out: any session read then would be the fan-out's.
  setLiveCheckInterval(10 * 60_000);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
  await Promise.all(stalled.splice(0).map((s) => s.cancel()));
});
afterAll(() => setLiveCheckInterval(15_000));

describe("live fan-out at a sustained rate", () => {
  it("50 streams each receive every message.created of 20 inbound messages a second for 3 s, with no read per stream", async () => {
    const processor = startCallbackProcessor({ pollMs: 1_000 });
    try {
      const live = await streams(50);
      reads.count = 0;
      // 60 contacts, one message each, posted on a 50 ms schedule (not one after another).
      const contacts = Array.from({ length: 60 }, () => uniquePhone());
      const start = Date.now();
      const posted: Promise<number>[] = [];
      for (const [i, from] of contacts.entries()) {
        const due = start + i * 50;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        posted.push(postSigned(inboundBody(t.sender, { from, text: `Hello ${i}` })));
      }
      expect(await Promise.all(posted)).toEqual(contacts.map(() => 200));
      let uids: string[] = [];
      await vi.waitFor(
        async () => {
          const rows = await db.conversation.findMany({
            where: { senderId: t.sender.id, contactPhoneNumber: { in: contacts } },
            select: { id: true },
          });
          uids = rows.map((r) => r.id);
          expect(uids).toHaveLength(contacts.length);
        },
        { timeout: 30_000, interval: 100 },
      );
      // Every stream, every one: a notice dropped on any stream leaves its count above 0.
      await vi.waitFor(() => expect(missingPer(live, uids)).toEqual(live.map(() => 0)), {
        timeout: 30_000,
        interval: 100,
      });
      expect(live.every((s) => !s.closed)).toBe(true);
      // At most the subscription's start-up check (one read per session: 2) may still have
      // been reading; a read per stream or per notice would be thousands (50 x 60).
      expect(reads.count).toBeLessThanOrEqual(2);

      // The periodic check reads each session once, not each stream: 2 sessions behind 50 streams.
      const pings = live.map((s) => s.of("ping").length);
      setLiveCheckInterval(500);
      await vi.waitFor(() => expect(live.every((s, i) => s.of("ping").length > (pings[i] ?? 0))).toBe(true), {
        timeout: 30_000,
        interval: 20,
      });
      setLiveCheckInterval(10 * 60_000);
      expect(reads.count).toBeGreaterThan(0);
      expect(reads.count).toBeLessThan(live.length);
    } finally {
      await processor.stop();
    }
  });

  it("a stream whose reader stalls is cut off, and the others still receive every notice", async () => {
    const live = await streams(10);
    const stuck = openLiveStream(await principalOf(owner)); // opened, never read
    stalled.push(stuck);
    await vi.waitFor(() => expect(liveClientCount()).toBe(11));
    // ~500 KB of notices, past the 256 KB a stream may fall behind (stream.ts MAX_QUEUED_BYTES).
    const events: LiveEvent[] = Array.from({ length: 3_000 }, (_, i) => ({
      kind: "message.status",
      senderId: t.sender.id,
      messageId: `wamid.${"x".repeat(60)}${i}`,
      status: "delivered",
    }));
    for (let i = 0; i < events.length; i += 500) await publishLive(db, t.customer.id, events.slice(i, i + 500));
    await vi.waitFor(() => expect(live.map((s) => s.of("message.status").length)).toEqual(live.map(() => 3_000)), {
      timeout: 30_000,
      interval: 100,
    });
    for (const s of live) expect(s.of("message.status").map((e) => e.data)).toEqual(events);
    // The stalled one is no longer fed (it reconnects and refetches when its reader comes back).
    await vi.waitFor(() => expect(liveClientCount()).toBe(10));
  });
});
