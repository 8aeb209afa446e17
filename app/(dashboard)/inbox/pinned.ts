// The inbox list keeps the conversation being read (docs/inbox.md): pure, so it is unit-tested.
import type { PublicConversation } from "@/lib/domains/conversations/schemas";

/** The conversation being read, as last listed in one view (filter, search, page, sender). */
export type Pinned = { view: string; item: PublicConversation; index: number };

/**
 * The list as shown: the conversation being read stays where it was while the view is
 * unchanged, even once it no longer matches (reading it marks it read, which takes it out of
 * "Unread"; shown read). A new view starts from the server's list alone.
 */
export function withPinned(
  list: PublicConversation[],
  selected: string | undefined,
  pinned: Pinned | null,
  view: string,
): PublicConversation[] {
  if (!selected || list.some((c) => c.uid === selected)) return list;
  if (!pinned || pinned.view !== view || pinned.item.uid !== selected) return list;
  const shown = [...list];
  shown.splice(Math.min(pinned.index, shown.length), 0, { ...pinned.item, unreadCount: 0 });
  return shown;
}
