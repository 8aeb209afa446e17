"use client";
// One conversation (docs/inbox.md): the header and its actions, the assignee, the hand-off
// and blacklist notices, the contact's CSAT answer, the messages, the reply box and the internal notes, each in its own
// file; this one lays them out and keeps the window's time left current. Opening it takes
// the focus to its title and marks it read (use-thread.ts).
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { LabelColors } from "@/components/dashboard/label-chip";
import type { TemplateChoice } from "@/components/dashboard/template-fill";
import { buttonSecondary, card, muted } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import { dashboardApi } from "@/lib/dashboard/client";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import { AssignmentControls } from "./assignment-controls";
import { CsatAnswer } from "./csat-answer";
import { MessageList } from "./message-list";
import { NotesPanel } from "./notes-panel";
import { ReplyBox } from "./reply-box";
import { BlacklistedNotice, HandoffNotice } from "./thread-actions";
import { isWindowOpen } from "./thread-format";
import { ThreadHeader } from "./thread-header";
import { ThreadLabels } from "./thread-labels";
import { useThread } from "./use-thread";

/** An approved template the picker offers (its components give the fields and the preview). */
export type TemplateOption = TemplateChoice;

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
  labels = [],
  colors = {},
}: {
  uid: string;
  templates: TemplateOption[];
  backHref: string;
  /** The signed-in member's email ("Assign to me"). */
  me: string | null;
  /** The member may change the blacklist (contacts.write): the thread offers blacklist and unblock. */
  canBlacklist?: boolean;
  /** The account's label names, sorted (the picker's choices). */
  labels?: string[];
  colors?: LabelColors;
}) {
  const { thread, refresh, update, markUnread, showOlder } = useThread(uid);
  // The message the next reply quotes ("Reply" on a message), and our reactions.
  const [quoting, setQuoting] = useState<PublicConversationMessage | null>(null);
  const react = useMutation({
    mutationFn: ({ m, emoji }: { m: PublicConversationMessage; emoji: string }) =>
      dashboardApi.reply(uid, { type: "reaction", reaction: { messageId: m.messageUid, emoji } }),
    onSuccess: refresh,
  });

  // Opening a conversation takes the focus to it (on a phone the list it came from is gone).
  const titleRef = useRef<HTMLHeadingElement>(null);
  const loaded = thread.data !== undefined;
  useEffect(() => {
    if (loaded) titleRef.current?.focus();
  }, [loaded]);

  const now = useNow();
  const back = (
    <IntentLink href={backHref} className={`${buttonSecondary} md:hidden`}>
      ← All conversations
    </IntentLink>
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
  const { conversation: c, messages, total, blacklist, csat } = thread.data;
  return (
    <section className={`${card} min-w-0 space-y-3 p-3`} aria-labelledby="thread-title">
      {back}
      <ThreadHeader
        c={c}
        now={now}
        titleRef={titleRef}
        backHref={backHref}
        canBlacklist={canBlacklist}
        statusPending={update.isPending}
        onStatus={(status) => update.mutate({ status })}
        onMarkUnread={markUnread}
        onChange={refresh}
      />
      <AssignmentControls uid={uid} assignee={c.assignee} me={me} onChanged={refresh} />
      <ThreadLabels uid={uid} labels={c.labels} account={labels} colors={colors} onChanged={refresh} />
      <HandoffNotice c={c} />
      <CsatAnswer csat={csat} />
      {update.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {update.error.message}
        </p>
      ) : null}
      <BlacklistedNotice c={c} standing={blacklist} />
      <MessageList
        name={c.contactName ?? c.contactPhoneNumber}
        messages={messages}
        total={total}
        now={now}
        loadingOlder={thread.isFetching}
        onShowOlder={showOlder}
        actions={{
          onReply: setQuoting,
          onReact: (m, emoji) => react.mutate({ m, emoji }),
          reacting: react.isPending,
        }}
      />
      {react.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {react.error.message}
        </p>
      ) : null}
      <ReplyBox
        uid={uid}
        senderId={c.senderId}
        windowOpen={isWindowOpen(c.windowExpiresAt, now)}
        blacklisted={c.blacklisted}
        everWrote={c.lastInboundAt !== null}
        templates={templates}
        onSent={refresh}
        quoting={quoting}
        onQuoteDone={() => setQuoting(null)}
      />
      <NotesPanel uid={uid} />
    </section>
  );
}
