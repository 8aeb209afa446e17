// Every TanStack Query key the dashboard's browser code uses, one function per family
// (docs/dashboard.md "Data the browser holds"). A key is a prefix of the keys below it:
// invalidating `queryKeys.conversation(uid)` refetches that thread whatever its page count,
// `queryKeys.conversation()` every open thread. The live stream's notices name keys from here
// (components/dashboard/live-invalidation.ts), so a page and the notice that makes it stale
// cannot spell a key two ways. lib/dashboard/query-keys.test.ts fails on a literal
// `queryKey: [...]` anywhere else in app/ or components/.
//
// Imported by browser code: this module imports nothing.

/** Optional trailing parts: a family's key stops at the first one not given (its prefix). */
const key = <const P extends readonly unknown[]>(family: string, ...parts: P) => {
  const given = parts.indexOf(undefined);
  return [family, ...(given === -1 ? parts : parts.slice(0, given))] as readonly unknown[];
};

export const queryKeys = {
  /** The inbox list of one filter (its query string); no argument: every list. */
  inbox: (listQs?: string) => key("inbox", listQs),
  /** The navigation's unread badge for one sender ("" for all); no argument: every badge. */
  unread: (sender?: string) => key("unread", sender),
  /** One thread with `pages` pages loaded; a uid alone: that thread; nothing: every thread. */
  conversation: (uid?: string, pages?: number) => key("conversation", uid, pages),
  /** A thread's internal notes. */
  notes: (uid: string) => key("notes", uid),
  /** The members a thread can be assigned to. */
  assignees: (uid: string) => key("assignees", uid),
  /** The account's saved replies (the reply box's menu). */
  savedReplies: () => key("saved-replies"),
  /** The message log of one sender; no argument: every sender's log. */
  messages: (sender?: string) => key("messages", sender),
  /** The broadcasts list. */
  broadcasts: () => key("broadcasts"),
  /** One broadcast's page; no argument: every broadcast's. */
  broadcast: (uid?: string) => key("broadcast", uid),
  /** A broadcast draft's audience estimate, for the draft as it settled (its JSON). */
  broadcastEstimate: (draft: string) => key("broadcast-estimate", draft),
  /** A segment form's match count, for the rules as they settled (their JSON). */
  segmentCount: (rules: string) => key("segment-count", rules),
  /** A webhook recovery's progress (polled while it runs). */
  webhookRecovery: (webhookUid: string, recoveryUid: string | undefined) =>
    key("webhook-recovery", webhookUid, recoveryUid),
};
