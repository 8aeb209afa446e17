// The conversation being read stays in the inbox list until the view changes.
import { describe, expect, it } from "vitest";
import type { PublicConversation } from "@/lib/domains/conversations/schemas";
import { withPinned } from "./pinned";

const conv = (uid: string, unreadCount = 0) => ({ uid, unreadCount }) as PublicConversation;

describe("withPinned", () => {
  const pinned = { view: "unread=true", item: conv("conv_b", 2), index: 1 };

  it("puts the conversation being read back where it was, shown read, while the view is the same", () => {
    const shown = withPinned([conv("conv_a", 1), conv("conv_c", 1)], "conv_b", pinned, "unread=true");
    expect(shown.map((c) => [c.uid, c.unreadCount])).toEqual([
      ["conv_a", 1],
      ["conv_b", 0],
      ["conv_c", 1],
    ]);
  });

  it("lets it go once the view changes, or another conversation is open", () => {
    expect(withPinned([conv("conv_a")], "conv_b", pinned, "").map((c) => c.uid)).toEqual(["conv_a"]);
    expect(withPinned([conv("conv_a")], "conv_c", pinned, "unread=true").map((c) => c.uid)).toEqual(["conv_a"]);
    expect(withPinned([conv("conv_a")], undefined, pinned, "unread=true").map((c) => c.uid)).toEqual(["conv_a"]);
  });

  it("changes nothing when the server still lists it", () => {
    const list = [conv("conv_b", 0)];
    expect(withPinned(list, "conv_b", pinned, "unread=true")).toBe(list);
  });
});
