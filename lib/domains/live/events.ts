// What the live stream of the dashboard carries (docs/inbox.md "Live updates"): small
// notices (ids and counts) that tell an open page what to refetch, never the data itself.
// Every notice names its sender, so a member limited to some senders is only told about
// theirs; each kind names the permission a member needs to be told about it.
import type { Permission } from "@/lib/domains/auth/permissions";

export type LiveEvent =
  /** A message joined a conversation (inbound, or sent from any path); the conversation's unread count when known. */
  | { kind: "message.created"; senderId: string; conversationUid: string; unreadCount?: number }
  /** A sent message's status moved (the thread's ticks). */
  | { kind: "message.status"; senderId: string; messageId: string; status: string }
  /** A contact's file was fetched and kept, or could not be (docs/media.md): the threads showing it refetch. */
  | { kind: "media.status"; senderId: string; mediaId: string; status: string }
  /** A conversation was read, closed or reopened. */
  | { kind: "conversation.changed"; senderId: string; conversationUid: string; unreadCount?: number; status?: string }
  /** A conversation's assignee changed (the member's email, or null when unassigned). */
  | { kind: "conversation.assigned"; senderId: string; conversationUid: string; assignee: string | null }
  /** A broadcast moved on (published by the broadcast engine; its page refetches or shows the counts). */
  | {
      kind: "broadcast.progress";
      senderId: string;
      broadcastUid: string;
      status: string;
      total: number;
      sent: number;
      failed: number;
    };

export type LiveKind = LiveEvent["kind"];

/** The permission a member needs to receive each kind (lib/domains/auth/permissions.ts). */
export const KIND_PERMISSION: Record<LiveKind, Permission> = {
  "message.created": "inbox",
  "message.status": "inbox",
  "media.status": "inbox",
  "conversation.changed": "inbox",
  "conversation.assigned": "inbox",
  "broadcast.progress": "broadcasts",
};

/** One notification's payload: the customer and the notices of one commit. */
export type LivePayload = { c: string; e: LiveEvent[] };

/**
 * A member's access changed (a session ended, removed, a new role or sender list, the account
 * suspended): their streams are checked again at once. `member` null: every member of the
 * account. Sent by the database's triggers (migration 20261128120000_live_access_notify).
 */
export type AccessPayload = { c: string; member: string | null };
