import { describe, expect, it } from "vitest";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import { bubbleText, dayLabel, senderLabel, ticksOf, windowRemaining, withDaySeparators } from "./thread-format";

const NOW = Date.parse("2026-11-23T18:00:00Z");

function msg(uid: string, timestamp: string, over: Partial<PublicConversationMessage> = {}): PublicConversationMessage {
  return {
    messageUid: uid,
    conversationUid: "conv_1",
    direction: "inbound",
    type: "text",
    content: { text: { body: uid } },
    status: "received",
    providerMessageId: null,
    sentBy: "contact",
    sentByLabel: null,
    errorCode: null,
    errorMessage: null,
    timestamp,
    media: null,
    replyTo: null,
    reactions: [],
    interactive: null,
    reply: null,
    ...over,
  };
}

describe("inbox thread formatting", () => {
  it("puts one separator before each UTC day", () => {
    const items = withDaySeparators(
      [
        msg("a", "2026-11-20T10:00:00.000Z"),
        msg("b", "2026-11-22T23:59:00.000Z"),
        msg("c", "2026-11-23T00:01:00.000Z"),
        msg("d", "2026-11-23T17:00:00.000Z"),
      ],
      NOW,
    );
    expect(items.map((i) => (i.kind === "day" ? i.label : i.message.messageUid))).toEqual([
      "Fri, 20 Nov 2026",
      "a",
      "Yesterday",
      "b",
      "Today",
      "c",
      "d",
    ]);
    expect(dayLabel("2026-11-23T00:00:00Z", NOW)).toBe("Today");
  });

  it("says how long the window has left, or why it is shut", () => {
    expect(windowRemaining("2026-11-24T17:59:30Z", NOW)).toBe("24 h 0 min left");
    expect(windowRemaining("2026-11-23T18:12:00Z", NOW)).toBe("12 min left");
    expect(windowRemaining("2026-11-23T17:00:00Z", NOW)).toBe("Closed");
    expect(windowRemaining(null, NOW)).toMatch(/not written/);
  });

  it("maps statuses to ticks with words for screen readers", () => {
    expect(ticksOf("sent")).toMatchObject({ marks: "✓", label: "Sent" });
    expect(ticksOf("delivered")).toMatchObject({ marks: "✓✓", label: "Delivered", tone: "muted" });
    expect(ticksOf("read")).toMatchObject({ marks: "✓✓", label: "Read", tone: "read" });
    expect(ticksOf("failed")).toMatchObject({ label: "Failed", tone: "failed" });
    expect(ticksOf("accepted").label).toBe("Pending");
  });

  it("names who sent a message and what it says", () => {
    expect(senderLabel({ sentBy: "dashboard", sentByLabel: "ann@example.com" })).toBe("ann@example.com");
    expect(senderLabel({ sentBy: "chatbot", sentByLabel: "Helper" })).toBe("Chatbot Helper");
    expect(senderLabel({ sentBy: "api", sentByLabel: null })).toBe("API");
    expect(bubbleText({ type: "template", content: { template: { name: "hi", language: { code: "en" } } } })).toBe(
      "Template hi (en)",
    );
    expect(bubbleText({ type: "image", content: { image: { caption: "Look" } } })).toBe("[image] Look");
    expect(bubbleText({ type: "interactive", content: { interactive: { button_reply: { title: "Yes" } } } })).toBe(
      "Yes",
    );
  });
});
