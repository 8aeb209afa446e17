// Which of the page's queries a live notice makes stale (docs/inbox.md "Live updates"): a
// pure map from a notice to TanStack Query key prefixes. The prefixes are named once, in
// LIVE_QUERY_KEYS, as the pages spell them (the inbox list ["inbox", qs], the thread
// ["conversation", uid, pages], the badge ["unread", sender], the message log ["messages",
// sender]); a shared module of query keys for every page can take their place one for one.
import type { QueryKey } from "@tanstack/react-query";
import type { LiveEvent } from "@/lib/domains/live/events";

export const LIVE_QUERY_KEYS = {
  inbox: (): QueryKey => ["inbox"],
  unread: (): QueryKey => ["unread"],
  conversation: (uid?: string): QueryKey => (uid ? ["conversation", uid] : ["conversation"]),
  messages: (): QueryKey => ["messages"],
  broadcasts: (): QueryKey => ["broadcasts"],
  broadcast: (uid?: string): QueryKey => (uid ? ["broadcast", uid] : ["broadcast"]),
};
const k = LIVE_QUERY_KEYS;

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
