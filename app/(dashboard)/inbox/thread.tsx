"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { type TemplateChoice, TemplateFillFields, useTemplateFill } from "@/components/dashboard/template-fill";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import { button, buttonSecondary, card, input, label, muted } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
// One conversation: header (contact, window time left, close/reopen), the bubbles with day
// separators and status ticks (polled every two seconds), and the reply box: text while the
// window is open (Enter sends, Shift+Enter breaks the line), else an approved template;
// disabled for a blacklisted contact; `/` inserts a saved reply. Opening it marks it read.
// The assignee and the internal notes sit apart from the messages (docs/inbox.md).
import { formatCount } from "@/lib/core/count";
import type { BlacklistStanding } from "@/lib/domains/contacts/blacklist";
import type { PublicConversation, PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import { AssignmentControls } from "./assignment-controls";
import { NotesPanel } from "./notes-panel";
import { postJson } from "./post-json";
import { useSavedReplyMenu } from "./saved-reply-menu";
import { BlacklistControls, blacklistDescription, HandoffNotice, MarkUnreadButton } from "./thread-actions";
import {
  bubbleText,
  isWindowOpen,
  senderLabel,
  ticksOf,
  timeOf,
  windowRemaining,
  withDaySeparators,
} from "./thread-format";

/** An approved template the picker offers (its components give the fields and the preview). */
export type TemplateOption = TemplateChoice;
type ThreadAnswer = {
  conversation: PublicConversation;
  messages: PublicConversationMessage[];
  total: number;
  /** The contact's blacklist entry as it was given (reason, source), when blacklisted. */
  blacklist: BlacklistStanding | null;
};

export const THREAD_POLL_MS = 2_000;

const post = postJson;

/** Re-renders every 30 s so the window's time left stays current. */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

export function Thread({
  uid,
  templates,
  backHref,
  me,
  canBlacklist = false,
}: {
  uid: string;
  templates: TemplateOption[];
  backHref: string;
  /** The signed-in member's email ("Assign to me"). */
  me: string | null;
  /** The member may change the blacklist (contacts.write): the thread offers blacklist and unblock. */
  canBlacklist?: boolean;
}) {
  const queryClient = useQueryClient();
  const base = `/api/dashboard/conversations/${encodeURIComponent(uid)}`;
  // Pages of 100, newest first; "Show older messages" adds one. Polled together.
  const [pages, setPages] = useState(1);
  const live = useLiveUpdates();
  const thread = useQuery({
    queryKey: ["conversation", uid, pages],
    queryFn: async (): Promise<ThreadAnswer> => {
      const answers = await Promise.all(
        Array.from({ length: pages }, async (_, i) => {
          const res = await fetch(`${base}?page=${i + 1}`);
          const json = await res.json();
          if (!res.ok) {
            throw new Error(typeof json.message === "string" ? json.message : "Could not load the conversation");
          }
          return json as ThreadAnswer;
        }),
      );
      const seen = new Set<string>();
      const messages = answers
        .toReversed()
        .flatMap((a) => a.messages)
        .filter((m) => !seen.has(m.messageUid) && seen.add(m.messageUid));
      return {
        conversation: answers[0].conversation,
        messages,
        total: answers[0].total,
        blacklist: answers[0].blacklist ?? null,
      };
    },
    placeholderData: keepPreviousData,
    refetchInterval: live ? false : THREAD_POLL_MS,
    staleTime: 0,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["conversation", uid] });
    void queryClient.invalidateQueries({ queryKey: ["inbox"] });
    void queryClient.invalidateQueries({ queryKey: ["unread"] });
  };
  const update = useMutation({
    mutationFn: (conversation: { status?: "OPEN" | "CLOSED"; markRead?: true }) => post(base, { conversation }),
    onSuccess: refresh,
  });

  // Mark read on open, and again when messages arrive while it is open: once per fetched
  // answer that shows unread messages.
  const unread = thread.data?.conversation.unreadCount ?? 0;
  const markedFor = useRef(0);
  // Set by "Mark as unread": the thread's refetch its own change triggers (the live notice)
  // shows it unread while the page is still leaving; reading it then would undo the mark.
  const markedUnread = useRef(false);
  useEffect(() => {
    if (markedUnread.current || unread === 0 || thread.dataUpdatedAt <= markedFor.current) return;
    markedFor.current = thread.dataUpdatedAt;
    post(base, { conversation: { markRead: true } })
      .then(refresh)
      .catch(() => undefined);
  });

  // Keep the newest message in view when one arrives (not when older ones are added above).
  const logRef = useRef<HTMLDivElement>(null);
  const newest = thread.data?.messages.at(-1)?.messageUid;
  useEffect(() => {
    if (newest && logRef.current) logRef.current.scrollTop = logRef.current.scrollHeight;
  }, [newest]);

  // Opening a conversation takes the focus to it (on a phone the list it came from is gone).
  const titleRef = useRef<HTMLHeadingElement>(null);
  const loaded = thread.data !== undefined;
  useEffect(() => {
    if (loaded) titleRef.current?.focus();
  }, [loaded]);

  const now = useNow();
  const back = (
    <Link href={backHref} className={`${buttonSecondary} md:hidden`}>
      ← All conversations
    </Link>
  );
  if (thread.isLoading) {
    return (
      <section className={card} aria-label="Conversation">
        {back}
        <p className={muted}>Loading…</p>
      </section>
    );
  }
  if (!thread.data) {
    return (
      <section className={card} aria-label="Conversation">
        {back}
        <p className="text-sm text-red-700 dark:text-red-300">
          {thread.error?.message ?? "Could not load the conversation."}
        </p>
      </section>
    );
  }
  const { conversation: c, messages, total, blacklist } = thread.data;
  const open = isWindowOpen(c.windowExpiresAt, now);
  const name = c.contactName ?? c.contactPhoneNumber;
  return (
    <section className={`${card} min-w-0 space-y-3 p-3`} aria-labelledby="thread-title">
      {back}
      <header className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <h2
            id="thread-title"
            title={name}
            ref={titleRef}
            tabIndex={-1}
            className="truncate text-lg font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
          >
            {name}
          </h2>
          <p className={`${muted} break-words`}>
            {c.contactName ? <span className="font-mono">{c.contactPhoneNumber} · </span> : null}
            via {c.senderId} · {c.status === "OPEN" ? "Open" : "Closed"}
          </p>
          <p className="text-sm" data-testid="window-state">
            <span className="font-medium">Customer service window: </span>
            <span className={open ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300"}>
              {windowRemaining(c.windowExpiresAt, now)}
            </span>
          </p>
        </div>
        <button
          type="button"
          className={buttonSecondary}
          disabled={update.isPending}
          onClick={() => update.mutate({ status: c.status === "OPEN" ? "CLOSED" : "OPEN" })}
        >
          {c.status === "OPEN" ? "Close conversation" : "Reopen conversation"}
        </button>
        <MarkUnreadButton
          backHref={backHref}
          onMark={async () => {
            markedUnread.current = true;
            try {
              await post(base, { conversation: { markUnread: true } });
            } catch (error) {
              markedUnread.current = false;
              throw error;
            }
            // The list shows it unread at once, whether or not a live notice comes first.
            void queryClient.invalidateQueries({ queryKey: ["inbox"] });
            void queryClient.invalidateQueries({ queryKey: ["unread"] });
          }}
        />
        {canBlacklist ? <BlacklistControls c={c} onChange={refresh} /> : null}
      </header>
      <AssignmentControls uid={uid} assignee={c.assignee} me={me} onChanged={refresh} />
      <HandoffNotice c={c} />
      {update.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {update.error.message}
        </p>
      ) : null}
      {c.blacklisted ? (
        <p
          className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="blacklisted-notice"
        >
          {blacklistDescription(blacklist)} Replies are disabled until they opt back in or are{" "}
          <Link
            className="underline"
            href={`/blacklist?sender=${encodeURIComponent(c.senderId)}&search=${encodeURIComponent(c.contactPhoneNumber)}`}
          >
            removed from the blacklist
          </Link>
          .
        </p>
      ) : null}
      <div
        ref={logRef}
        role="log"
        aria-label={`Messages with ${name}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="max-h-[60vh] min-h-48 overflow-y-auto overflow-x-hidden rounded-md bg-slate-50 p-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:bg-slate-950"
      >
        {total > messages.length ? (
          <p className="pb-2 text-center">
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setPages((n) => n + 1)}
              disabled={thread.isFetching}
            >
              Show older messages ({formatCount(total - messages.length)} more)
            </button>
          </p>
        ) : null}
        <ol className="space-y-2">
          {withDaySeparators(messages, now).map((item) =>
            item.kind === "day" ? (
              <li key={item.key} className="py-1 text-center">
                <span className="rounded-full bg-slate-200 px-3 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                  {item.label}
                </span>
              </li>
            ) : (
              <Bubble key={item.key} m={item.message} />
            ),
          )}
        </ol>
      </div>
      <ReplyBox
        uid={uid}
        windowOpen={open}
        blacklisted={c.blacklisted}
        everWrote={c.lastInboundAt !== null}
        templates={templates}
        onSent={refresh}
      />
      <NotesPanel uid={uid} />
    </section>
  );
}

function Bubble({ m }: { m: PublicConversationMessage }) {
  const text = bubbleText(m);
  if (m.direction === "system") {
    return (
      <li className="flex justify-center" data-testid="thread-note">
        <p className="max-w-[90%] rounded-md border border-amber-300 bg-amber-50 px-3 py-1 text-center text-xs text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
          {text} · {timeOf(m.timestamp)}
        </p>
      </li>
    );
  }
  const outbound = m.direction === "outbound";
  const ticks = ticksOf(m.status);
  const tickTone =
    ticks.tone === "read"
      ? "text-sky-700 dark:text-sky-300"
      : ticks.tone === "failed"
        ? "text-red-700 dark:text-red-300"
        : "text-slate-600 dark:text-slate-400";
  return (
    <li
      className={`flex ${outbound ? "justify-end" : "justify-start"}`}
      data-testid="thread-message"
      data-direction={m.direction}
      data-status={m.status}
    >
      <div
        className={`max-w-[85%] min-w-0 rounded-lg px-3 py-2 shadow-sm ${
          outbound
            ? "rounded-br-none bg-indigo-100 text-slate-900 dark:bg-indigo-900 dark:text-slate-50"
            : "rounded-bl-none bg-white text-slate-900 dark:bg-slate-800 dark:text-slate-50"
        }`}
      >
        <p className="whitespace-pre-wrap break-words text-sm">{text}</p>
        <p className="mt-1 flex flex-wrap items-center justify-end gap-x-2 text-xs text-slate-600 dark:text-slate-300">
          <span>{senderLabel(m)}</span>
          <time dateTime={m.timestamp} title={formatDateTime(m.timestamp)}>
            {timeOf(m.timestamp)}
          </time>
          {outbound ? (
            <span className={`font-semibold ${tickTone}`} data-testid="ticks">
              <span aria-hidden="true">{ticks.marks}</span>
              <span className="sr-only">{ticks.label}</span>
            </span>
          ) : null}
        </p>
        {outbound && m.status === "failed" ? (
          <p className="mt-1 text-xs text-red-800 dark:text-red-300" data-testid="failure-reason">
            Not delivered: {m.errorMessage ?? "the provider refused the message"}
            {m.errorCode ? ` (error ${m.errorCode})` : ""}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function ReplyBox({
  uid,
  windowOpen,
  blacklisted,
  everWrote,
  templates,
  onSent,
}: {
  uid: string;
  windowOpen: boolean;
  blacklisted: boolean;
  everWrote: boolean;
  templates: TemplateOption[];
  onSent: () => void;
}) {
  const [text, setText] = useState("");
  const fill = useTemplateFill(templates);
  const saved = useSavedReplyMenu(text, setText);
  const send = useMutation({
    mutationFn: (message: unknown) =>
      post(`/api/dashboard/conversations/${encodeURIComponent(uid)}/messages`, { message }),
    onSuccess: (_data, message) => {
      if ((message as { type: string }).type === "text") setText("");
      else fill.reset();
      onSent();
    },
  });
  const sendText = () => {
    const body = text.trim();
    if (!body || send.isPending || blacklisted) return;
    send.mutate({ type: "text", text: { body } });
  };
  const submitText = (e: FormEvent) => {
    e.preventDefault();
    sendText();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (saved.onKeyDown(e)) return;
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      sendText();
    }
  };
  const submitTemplate = (e: FormEvent) => {
    e.preventDefault();
    const template = fill.sendTemplate();
    if (!template || blacklisted) return;
    send.mutate({ type: "template", template });
  };
  const status = (
    <p role="status" className={muted}>
      {send.isError ? <span className="text-red-700 dark:text-red-300">{send.error.message}</span> : null}
    </p>
  );

  if (windowOpen || blacklisted) {
    return (
      <form onSubmit={submitText} aria-label="Reply" className="space-y-2">
        <label htmlFor="reply-text" className={label}>
          Reply
        </label>
        <textarea
          id="reply-text"
          className={input}
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={blacklisted}
          aria-describedby="reply-hint"
          maxLength={4096}
          aria-controls={saved.open ? "saved-reply-menu" : undefined}
          aria-autocomplete="list"
          aria-activedescendant={saved.activeId}
        />
        {saved.menu}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={button} disabled={blacklisted || send.isPending || !text.trim()}>
            {send.isPending ? "Sending…" : "Send"}
          </button>
          <p id="reply-hint" className={muted}>
            {blacklisted
              ? "Replies are disabled: the contact is blacklisted."
              : "Enter sends, Shift+Enter adds a line, / inserts a saved reply."}
          </p>
        </div>
        {status}
      </form>
    );
  }
  return (
    <form onSubmit={submitTemplate} aria-label="Send a template" className="space-y-2">
      <p className="text-sm text-amber-900 dark:text-amber-200" data-testid="window-closed-notice">
        {everWrote
          ? "The 24-hour customer service window has closed: only an approved template can be sent."
          : "This contact has not written yet: only an approved template can be sent."}
      </p>
      <TemplateFillFields id="reply" templates={templates} fill={fill} />
      <button type="submit" className={button} disabled={send.isPending || !fill.template}>
        {send.isPending ? "Sending…" : "Send template"}
      </button>
      {status}
    </form>
  );
}
