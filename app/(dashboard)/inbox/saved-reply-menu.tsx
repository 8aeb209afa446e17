"use client";
// Saved replies in the reply box (docs/inbox.md "Saved replies"): typing `/` (at the start or
// after a space) opens the list of the account's snippets filtered by what follows; ↑/↓
// choose, Enter or Tab (or a click) inserts the text in place of `/shortcut` (and hands a
// reply's buttons to the reply box, which then sends a buttons message), Escape closes.
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useState } from "react";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";

export type ReplyButton = { id: string; title: string };
export type SavedReplyOption = { id: string; shortcut: string; text: string; buttons: ReplyButton[] | null };

/** The `/word` being typed at the end of the text, or null. */
export function slashQuery(text: string): string | null {
  const m = /(?:^|\s)\/([a-z0-9_-]*)$/i.exec(text);
  return m ? (m[1] ?? "").toLowerCase() : null;
}

/** The text with its trailing `/word` replaced by the snippet. */
export const insertSnippet = (text: string, snippet: string) => text.replace(/\/[a-z0-9_-]*$/i, snippet);

export function useSavedReplyMenu(
  text: string,
  setText: (t: string) => void,
  setButtons: (buttons: ReplyButton[]) => void,
) {
  const replies = useQuery({
    queryKey: queryKeys.savedReplies(),
    // Without them the menu stays closed; the reply box works as before.
    queryFn: (): Promise<SavedReplyOption[]> =>
      dashboardApi.savedReplies().then(
        (a) => a.savedReplies,
        () => [],
      ),
    staleTime: 60_000,
  });
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const query = slashQuery(text);
  const matches =
    query === null || closedFor === text ? [] : (replies.data ?? []).filter((r) => r.shortcut.startsWith(query));
  const open = matches.length > 0;
  const index = Math.min(active, Math.max(matches.length - 1, 0));
  const choose = (r: SavedReplyOption) => {
    setText(insertSnippet(text, r.text));
    if (r.buttons?.length) setButtons(r.buttons);
    setActive(0);
  };
  /** Handles the menu's keys; true when the key was the menu's (the caller then does nothing). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((index + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
      return true;
    }
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      const r = matches[index];
      if (r) choose(r);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      setClosedFor(text);
      return true;
    }
    return false;
  };
  const menu = open ? (
    <div
      id="saved-reply-menu"
      role="listbox"
      aria-label="Saved replies"
      className="max-h-48 overflow-y-auto rounded-md border border-slate-300 bg-white shadow dark:border-slate-700 dark:bg-slate-900"
    >
      {matches.map((r, i) => (
        <div
          key={r.id}
          id={`saved-reply-${r.id}`}
          role="option"
          aria-selected={i === index}
          tabIndex={-1}
          className={`cursor-pointer px-3 py-1 text-sm ${i === index ? "bg-indigo-100 dark:bg-indigo-900" : ""}`}
          onMouseDown={(e) => {
            e.preventDefault();
            choose(r);
          }}
          onKeyDown={() => undefined}
        >
          <span className="font-mono">/{r.shortcut}</span>{" "}
          <span className="text-slate-600 dark:text-slate-400">{r.text.slice(0, 80)}</span>
          {r.buttons?.length ? (
            <span className="text-slate-600 dark:text-slate-400">
              {" "}
              · {r.buttons.length} button{r.buttons.length === 1 ? "" : "s"}
            </span>
          ) : null}
        </div>
      ))}
    </div>
  ) : null;
  const activeId = open && matches[index] ? `saved-reply-${matches[index].id}` : undefined;
  return { menu, onKeyDown, open, activeId };
}
