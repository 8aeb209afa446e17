// Which queries a live notice makes stale, and the reconnection backoff (docs/inbox.md
// "Live updates"): pure rules of the browser's side of the stream.
import { describe, expect, it } from "vitest";
import { EVERY_LIVE_KEY, staleKeysFor } from "./live-invalidation";
import { reconnectDelayMs } from "./use-live-updates";

describe("staleKeysFor", () => {
  it("a conversation's notice refreshes the list, the badge, that thread and the message log", () => {
    expect(staleKeysFor({ kind: "message.created", senderId: "snd_a", conversationUid: "conv_1" })).toEqual([
      ["inbox"],
      ["unread"],
      ["conversation", "conv_1"],
      ["messages"],
    ]);
  });

  it("a status refreshes every open thread and the log; a broadcast's progress its pages", () => {
    expect(staleKeysFor({ kind: "message.status", senderId: "s", messageId: "m", status: "read" })).toEqual([
      ["conversation"],
      ["messages"],
    ]);
    expect(
      staleKeysFor({
        kind: "broadcast.progress",
        senderId: "s",
        broadcastUid: "bc_1",
        status: "SENDING",
        total: 2,
        sent: 1,
        failed: 0,
      }),
    ).toEqual([["broadcasts"], ["broadcast", "bc_1"]]);
  });

  it("a file fetched (or given up) refreshes every open thread: its placeholder fills in", () => {
    expect(staleKeysFor({ kind: "media.status", senderId: "s", mediaId: "med_1", status: "ready" })).toEqual([
      ["conversation"],
    ]);
  });

  it("a (re)connection refreshes a prefix of every key a notice can name", () => {
    const prefixes = EVERY_LIVE_KEY.map((k) => JSON.stringify(k));
    const kinds = [
      staleKeysFor({ kind: "conversation.assigned", senderId: "s", conversationUid: "c", assignee: null }),
      staleKeysFor({ kind: "conversation.changed", senderId: "s", conversationUid: "c" }),
      staleKeysFor({
        kind: "broadcast.progress",
        senderId: "s",
        broadcastUid: "b",
        status: "X",
        total: 0,
        sent: 0,
        failed: 0,
      }),
    ].flat();
    for (const key of kinds) expect(prefixes).toContain(JSON.stringify(key.slice(0, 1)));
  });
});

describe("reconnectDelayMs", () => {
  it("doubles from 1 s to at most 10 s, jittered to 50-100% of that", () => {
    expect([0, 1, 2, 3, 4, 10].map((n) => reconnectDelayMs(n, 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
    expect(reconnectDelayMs(0, 0)).toBe(500);
    expect(reconnectDelayMs(10, 0)).toBe(5_000);
  });
});
