"use client";
// Internal notes of the open conversation (docs/inbox.md "Internal notes"): shown apart from
// the messages, newest first, with the author; never sent to the contact.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonSecondary, input, label, muted } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import type { PublicConversationNote } from "@/lib/domains/conversations/schemas";

export const NOTES_POLL_MS = 5_000;

const authorOf = (n: PublicConversationNote) =>
  n.author.type === "member" ? (n.author.email ?? "a member") : `API token ${n.author.tokenName ?? ""}`.trim();

export function NotesPanel({ uid }: { uid: string }) {
  const queryClient = useQueryClient();
  const notes = useQuery({
    queryKey: queryKeys.notes(uid),
    queryFn: async (): Promise<PublicConversationNote[]> => (await dashboardApi.notes(uid)).notes,
    refetchInterval: NOTES_POLL_MS,
  });
  const [text, setText] = useState("");
  const add = useMutation({
    mutationFn: (body: string) => dashboardApi.addNote(uid, body),
    onSuccess: () => {
      setText("");
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes(uid) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) add.mutate(text.trim());
  };
  return (
    <section
      aria-labelledby={`notes-${uid}`}
      className="space-y-2 rounded-md border border-dashed border-amber-400 bg-amber-50/50 p-2 dark:border-amber-700 dark:bg-amber-950/40"
    >
      <h3 id={`notes-${uid}`} className="text-sm font-semibold">
        Internal notes{" "}
        <span className="font-normal text-slate-600 dark:text-slate-400">(only your team sees them)</span>
      </h3>
      {notes.data && notes.data.length > 0 ? (
        <ol className="max-h-48 space-y-1 overflow-y-auto" aria-label="Internal notes">
          {notes.data.map((n) => (
            <li key={n.noteUid} data-testid="internal-note" className="rounded bg-white p-2 text-sm dark:bg-slate-900">
              <p className="whitespace-pre-wrap break-words">{n.text}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {authorOf(n)} · <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className={muted}>No notes yet.</p>
      )}
      <form onSubmit={submit} aria-label="Add an internal note" className="space-y-1">
        <label htmlFor={`note-text-${uid}`} className={label}>
          Note
        </label>
        <textarea
          id={`note-text-${uid}`}
          className={input}
          rows={2}
          maxLength={4096}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className={buttonSecondary} disabled={add.isPending || !text.trim()}>
          {add.isPending ? "Adding…" : "Add note"}
        </button>
        {add.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {add.error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}
