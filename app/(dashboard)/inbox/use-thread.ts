"use client";
// The data of one open conversation (docs/inbox.md): its messages in pages of 100 (newest
// first; "Show older messages" adds a page, all refetched together) on the tab's live stream
// (polled only without it), the changes made from the thread (close/reopen, mark unread), and
// the read mark set whenever the thread shows unread messages.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import { dashboardApi, type ThreadPage } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import { livePoll } from "@/lib/dashboard/query-retry";
import { mediaOf } from "./media-format";

/** The thread's loaded pages as one answer. */
export type ThreadAnswer = ThreadPage;

const THREAD_POLL_MS = 2_000;
/**
 * While a contact's file is still being fetched the live stream's `media.status` notice fills
 * its placeholder in; this slower poll is the safety net for a notice missed between two
 * connections of the stream.
 */
const PENDING_MEDIA_POLL_MS = 10_000;

const hasPendingMedia = (answer: ThreadAnswer | undefined) =>
  answer?.messages.some((m) => mediaOf(m)?.status === "pending") ?? false;

export function useThread(uid: string) {
  const queryClient = useQueryClient();
  const [pages, setPages] = useState(1);
  const live = useLiveUpdates();
  const thread = useQuery({
    queryKey: queryKeys.conversation(uid, pages),
    queryFn: async (): Promise<ThreadAnswer> => {
      const answers = await Promise.all(Array.from({ length: pages }, (_, i) => dashboardApi.thread(uid, i + 1)));
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
        csat: answers[0].csat ?? null,
      };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      hasPendingMedia(query.state.data) && live ? PENDING_MEDIA_POLL_MS : livePoll(live, THREAD_POLL_MS)(query),
    staleTime: 0,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.conversation(uid) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.unread() });
  };
  const update = useMutation({
    mutationFn: (conversation: { status?: "OPEN" | "CLOSED"; markRead?: true }) =>
      dashboardApi.updateConversation(uid, conversation),
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
    dashboardApi
      .updateConversation(uid, { markRead: true })
      .then(refresh)
      .catch(() => undefined);
  });

  const markUnread = async () => {
    markedUnread.current = true;
    try {
      await dashboardApi.updateConversation(uid, { markUnread: true });
    } catch (error) {
      markedUnread.current = false;
      throw error;
    }
    // The list shows it unread at once, whether or not a live notice comes first.
    void queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.unread() });
  };

  return { thread, refresh, update, markUnread, showOlder: () => setPages((n) => n + 1) };
}
