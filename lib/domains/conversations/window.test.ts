// The window rule and previews as pure logic (docs/conversations.md).
import { describe, expect, it } from "vitest";
import { WINDOW_MS } from "@/lib/domains/provider/service-window";
import { PREVIEW_MAX, previewOf, typedText } from "./content";
import { isFreeForm, windowClosedError, windowState } from "./window";

describe("windowState", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  it("is open for 24 hours after the contact's last message, closed after, and closed when they never wrote", () => {
    expect(windowState(null, now)).toEqual({ lastInboundAt: null, windowExpiresAt: null, windowOpen: false });
    const recent = new Date(now - WINDOW_MS + 1000);
    expect(windowState(recent, now)).toMatchObject({ windowOpen: true, windowExpiresAt: new Date(now + 1000) });
    expect(windowState(new Date(now - WINDOW_MS), now).windowOpen).toBe(false);
  });

  it("refuses with both times in the details", () => {
    const e = windowClosedError(windowState(new Date(now - 2 * WINDOW_MS), now));
    expect(e.code).toBe("CUSTOMER_SERVICE_WINDOW_CLOSED");
    expect(e.status).toBe(400);
    expect(e.details).toEqual({
      lastInboundAt: new Date(now - 2 * WINDOW_MS).toISOString(),
      windowExpiresAt: new Date(now - WINDOW_MS).toISOString(),
    });
    expect(windowClosedError(windowState(null, now)).details).toEqual({ lastInboundAt: null, windowExpiresAt: null });
  });
});

describe("isFreeForm", () => {
  it("templates, order messages, Direct Send and reactions pass; everything else needs the window", () => {
    expect(isFreeForm({ type: "template" })).toBe(false);
    // A reaction has the provider's own rule instead (docs/messaging.md "Reactions").
    expect(isFreeForm({ type: "reaction" })).toBe(false);
    expect(isFreeForm({ type: "text" }, { category: "utility" })).toBe(false);
    expect(isFreeForm({ type: "interactive", interactive: { type: "order_details" } })).toBe(false);
    expect(isFreeForm({ type: "interactive", interactive: { type: "order_status" } })).toBe(false);
    for (const type of ["text", "image", "document", "audio", "video", "location", "sticker", "contacts"])
      expect(isFreeForm({ type }), type).toBe(true);
    expect(isFreeForm({ type: "interactive", interactive: { type: "button" } })).toBe(true);
  });
});

describe("previewOf", () => {
  it("shows text, captions or the kind of message, in at most 100 characters", () => {
    expect(previewOf("text", { text: { body: "  Hello\n there " } })).toBe("Hello there");
    const long = previewOf("text", { text: { body: "x".repeat(300) } });
    expect(long).toHaveLength(PREVIEW_MAX);
    expect(long.endsWith("…")).toBe(true);
    expect(previewOf("image", { image: { caption: "Receipt" } })).toBe("Receipt");
    expect(previewOf("image", { image: { id: "1" } })).toBe("[image]");
    expect(previewOf("template", { template: { name: "order_update" } })).toBe("Template: order_update");
    expect(previewOf("interactive", { interactive: { type: "button_reply", button_reply: { title: "Yes" } } })).toBe(
      "Yes",
    );
    expect(previewOf("reaction", { reaction: { emoji: "👍" } })).toBe("Reacted 👍");
    expect(previewOf("sticker", { sticker: {} })).toBe("[sticker]");
    expect(typedText("button", { button: { text: "STOP" } })).toBe("STOP");
    expect(typedText("image", { image: {} })).toBeUndefined();
  });
});
