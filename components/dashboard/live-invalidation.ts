// Which of the page's queries a live notice makes stale (docs/inbox.md "Live updates"): a
// pure map from a notice to TanStack Query key prefixes, named by the one module of query
// keys the pages use too (lib/dashboard/query-keys.ts): the inbox list, the thread, the
// badge, the message log, the broadcasts.
import type { QueryKey } from "@tanstack/react-query";
import { queryKeys as k } from "@/lib/dashboard/query-keys";
import type { LiveEvent } from "@/lib/domains/live/events";

/** The query-key prefixes this notice makes stale. */
export function staleKeysFor(event: LiveEvent): QueryKey[] {
  switch (event.kind) {
    case "message.created":
    case "conversation.changed":
    case "conversation.assigned":
      return [k.inbox(), k.unread(), k.conversation(event.conversationUid), k.messages()];
    case "message.status":
      return [k.conversation(), k.messages()];
    case "media.status":
      return [k.conversation()];
    case "broadcast.progress":
      return [k.broadcasts(), k.broadcast(event.broadcastUid)];
  }
}

/** Everything a live notice can make stale: refetched after each (re)connection and each resync. */
export const EVERY_LIVE_KEY: QueryKey[] = [
  k.inbox(),
  k.unread(),
  k.conversation(),
  k.messages(),
  k.broadcasts(),
  k.broadcast(),
];
