// The browser's one way to call the dashboard's endpoints (docs/dashboard.md "Data the browser
// holds"): a function per endpoint, typed with the answer the server builds (the zod schemas'
// types and the serializers' return types, imported as types only), and one error type,
// DashboardApiError, carrying the refusal's error_code, message and details. TanStack Query's
// queryFn and mutationFn call these; no page or component fetches /api/dashboard itself.
//
// Imported by browser code: types only from the domains, nothing that runs on the server.
import type { z } from "zod";
import type { PageBlock } from "@/lib/core/pagination";
import type { DraftEstimate } from "@/lib/domains/broadcasts/draft-estimate";
import type { BlacklistStanding } from "@/lib/domains/contacts/blacklist";
import type { BulkUploadReport } from "@/lib/domains/contacts/schemas";
import type { TypingOutcome } from "@/lib/domains/conversations/provider-read";
import type { SavedReply } from "@/lib/domains/conversations/saved-replies";
import type {
  ConversationNotePublic,
  ConversationNotesPublic,
  ConversationPublic,
  ConversationUpdateBody,
  PublicConversation,
  PublicConversationMessage,
} from "@/lib/domains/conversations/schemas";
import type { ConversationLabelsPublic } from "@/lib/domains/labels/schemas";
import type { sendFromComposer } from "@/lib/domains/messaging/composer";
import type { ComposerBody, ConversationReplyBody, SendReceipt } from "@/lib/domains/messaging/schemas";
import type { toDashboardMessageRow } from "@/lib/domains/reports/messages";
import type { ThreadCsat } from "@/lib/domains/support/csat-report";
import type { RecoveryPublic } from "@/lib/domains/webhooks/recovery-schemas";

/** A refusal (or a failure) of a dashboard endpoint: the answer's error_code and message. */
export class DashboardApiError extends Error {
  constructor(
    readonly status: number,
    /** The error code of the answer (docs/api/errors.md), REQUEST_FAILED when the answer had none. */
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "DashboardApiError";
  }
}

type ErrorFields = { message?: unknown; error_code?: unknown; details?: unknown };

/**
 * One call: JSON in and out, same-origin (the server refuses a mutation without our Origin).
 * A non-2xx answer throws DashboardApiError with the answer's message, or `fallback` when the
 * answer says none (a proxy's HTML page, a network failure).
 */
async function call<T>(method: "GET" | "POST", path: string, body: unknown, fallback: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/dashboard${path}`, {
      method,
      ...(method === "POST"
        ? {
            headers: { "Content-Type": "application/json" },
            body: typeof body === "string" ? body : JSON.stringify(body ?? {}),
          }
        : {}),
    });
  } catch {
    throw new DashboardApiError(0, "NETWORK_ERROR", fallback);
  }
  const json = (await res.json().catch(() => ({}))) as T & ErrorFields;
  if (!res.ok) {
    const code = typeof json.error_code === "string" ? json.error_code : "REQUEST_FAILED";
    const message = typeof json.message === "string" ? json.message : fallback;
    const details = typeof json.details === "object" && json.details !== null ? json.details : {};
    throw new DashboardApiError(res.status, code, message, details as Record<string, unknown>);
  }
  return json;
}

const get = <T>(path: string, fallback: string) => call<T>("GET", path, undefined, fallback);
const post = <T>(path: string, body: unknown, fallback = "Request failed") => call<T>("POST", path, body, fallback);

/**
 * A route of the public API's table served to the session (`session: true`,
 * app/api/dashboard/[...path]): it answers the API's envelope; this is its `data`, typed by the
 * route's `response` schema.
 */
const routeGet = async <R extends z.ZodType>(path: string, fallback: string) =>
  (await get<{ data: z.output<R> }>(path, fallback)).data;
const routePost = async <R extends z.ZodType>(path: string, body: unknown, fallback?: string) =>
  (await post<{ data: z.output<R> }>(path, body, fallback)).data;

/** A dashboard-only route (`session: "only"`, lib/api/dashboard-route-table.ts): its envelope's `data`, typed by the service's answer. */
const routeData = async <T>(path: string, fallback: string) => (await get<{ data: T }>(path, fallback)).data;
/** A dashboard-only route's POST: its envelope's `data`. */
const postData = async <T>(path: string, body: unknown, fallback: string) =>
  (await post<{ data: T }>(path, body, fallback)).data;

const enc = encodeURIComponent;
const conversationPath = (uid: string) => `/conversations/${enc(uid)}`;
const withQuery = (path: string, qs: string) => (qs ? `${path}?${qs}` : path);

export type InboxList = { conversations: PublicConversation[]; unread: number; pagination: PageBlock };

/** One page of a thread, its messages oldest first. */
export type ThreadPage = {
  conversation: PublicConversation;
  messages: PublicConversationMessage[];
  total: number;
  /** The contact's blacklist entry as it was given (reason, source), when blacklisted. */
  blacklist: BlacklistStanding | null;
  /** The contact's latest CSAT answer in the conversation (docs/reports.md "CSAT"), if any. */
  csat: ThreadCsat | null;
};

export type AssignableMember = { email: string; name: string | null };
export type SavedReplyAnswer = Pick<SavedReply, "id" | "shortcut" | "text" | "buttons">;
export type MessageLogRow = ReturnType<typeof toDashboardMessageRow>;
/** A reply as the reply box sends it (the API's reply body's `message`). */
export type ReplyMessage = z.input<typeof ConversationReplyBody>["message"];
/** A change of the conversation (the API's update body's `conversation`): status, read marks, assignee. */
export type ConversationChange = z.input<typeof ConversationUpdateBody>["conversation"];

export const dashboardApi = {
  /** The inbox list of one filter (its query string). */
  inbox: (qs: string) => routeData<InboxList>(withQuery("/conversations", qs), "Could not load conversations"),
  /** The unread badge (the chosen sender's, or every sender's). */
  unread: (sender: string | null) =>
    routeData<{ unread: number }>(
      withQuery("/conversations/unread", sender ? `sender=${enc(sender)}` : ""),
      "Could not count unread conversations",
    ),
  /** Page `page` (from 1) of a thread. */
  thread: (uid: string, page: number) =>
    routeData<ThreadPage>(`${conversationPath(uid)}?page=${page}`, "Could not load the conversation"),
  /** Close, reopen, mark read or unread, assign. */
  updateConversation: (uid: string, conversation: ConversationChange) =>
    routePost<typeof ConversationPublic>(conversationPath(uid), { conversation }),
  /** A reply from the inbox, sent as the signed-in member. */
  reply: (uid: string, message: ReplyMessage) =>
    routePost<typeof SendReceipt>(`${conversationPath(uid)}/messages`, { message }),
  /** The agent is typing (the contact's typing indicator). */
  typing: (uid: string) => postData<{ typing: TypingOutcome }>(`${conversationPath(uid)}/typing`, {}, "Request failed"),
  /** A thread's internal notes, newest first (the latest 100). */
  notes: (uid: string) =>
    routeGet<typeof ConversationNotesPublic>(`${conversationPath(uid)}/notes?limit=100`, "Could not load the notes"),
  addNote: (uid: string, text: string) =>
    routePost<typeof ConversationNotePublic>(`${conversationPath(uid)}/notes`, { note: { text } }),
  assignees: (uid: string) =>
    routeData<{ members: AssignableMember[] }>(`${conversationPath(uid)}/assignees`, "Could not load the members"),
  changeLabels: (uid: string, change: { add?: string[]; remove?: string[] }) =>
    routePost<typeof ConversationLabelsPublic>(`${conversationPath(uid)}/labels`, change),
  savedReplies: () => routeData<{ savedReplies: SavedReplyAnswer[] }>("/saved-replies", "Could not load saved replies"),
  /** The message log of one sender. */
  messages: (sender: string) =>
    routeData<{ messages: MessageLogRow[]; pagination: PageBlock }>(
      `/messages?sender=${enc(sender)}`,
      "Could not load messages",
    ),
  /** The composer's send: its body as the form holds it (a template not picked yet is null); ComposerBody checks it on the server. */
  send: (body: z.input<typeof ComposerBody> | Record<string, unknown>) =>
    postData<{ message: Awaited<ReturnType<typeof sendFromComposer>> }>("/messages", body, "Send failed"),
  /** A broadcast draft's audience estimate (`draft`: the draft body's JSON). */
  broadcastEstimate: (draft: string) =>
    postData<{ estimate: DraftEstimate }>("/broadcasts/estimate", draft, "The audience could not be counted"),
  /** The contacts a segment's rules match now (`rules`: the count body's JSON). */
  segmentCount: (rules: string) =>
    postData<{ count: number }>("/segments/count", rules, "The segment could not be counted"),
  /** A webhook recovery's progress. */
  webhookRecovery: (webhookUid: string, recoveryUid: string, sender: string) =>
    routeData<{ recovery: RecoveryPublic }>(
      `/webhooks/${enc(webhookUid)}/recoveries/${enc(recoveryUid)}?sender=${enc(sender)}`,
      "Could not load the recovery",
    ),
  /** One chunk of a contact upload (`chunk`: the rows and the upload's id): the API's bulk upload. */
  contactChunk: (bookUid: string, chunk: unknown) =>
    routePost<typeof BulkUploadReport>(`/contact-books/${enc(bookUid)}/contacts/bulk`, chunk, "Upload failed"),
};
