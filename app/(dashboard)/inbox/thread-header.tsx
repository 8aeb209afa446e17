"use client";
// The thread's header (docs/inbox.md): the contact (name, number, sender, open or closed),
// the customer service window's time left, and the thread's actions: close or reopen, mark
// as unread, blacklist or unblock (with contacts.write).
import type { Ref } from "react";
import { buttonSecondary, muted } from "@/components/ui/classes";
import type { PublicConversation } from "@/lib/domains/conversations/schemas";
import { BlacklistControls, MarkUnreadButton } from "./thread-actions";
import { isWindowOpen, windowRemaining } from "./thread-format";

export function ThreadHeader({
  c,
  now,
  titleRef,
  backHref,
  canBlacklist,
  statusPending,
  onStatus,
  onMarkUnread,
  onChange,
}: {
  c: PublicConversation;
  now: number;
  /** The title takes the focus when the conversation opens. */
  titleRef: Ref<HTMLHeadingElement>;
  backHref: string;
  canBlacklist: boolean;
  statusPending: boolean;
  onStatus: (status: "OPEN" | "CLOSED") => void;
  onMarkUnread: () => Promise<unknown>;
  onChange: () => void;
}) {
  const name = c.contactName ?? c.contactPhoneNumber;
  const open = isWindowOpen(c.windowExpiresAt, now);
  return (
    <header className="flex flex-wrap items-start gap-3">
      {/* A line of its own on a phone, and never narrower than 16rem beside the actions: a
          plain flex-1 let the buttons squeeze the name to a few letters at 390 px. */}
      <div className="min-w-0 basis-full sm:min-w-64 sm:flex-1">
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
        disabled={statusPending}
        onClick={() => onStatus(c.status === "OPEN" ? "CLOSED" : "OPEN")}
      >
        {c.status === "OPEN" ? "Close conversation" : "Reopen conversation"}
      </button>
      <MarkUnreadButton backHref={backHref} onMark={onMarkUnread} />
      {canBlacklist ? <BlacklistControls c={c} onChange={onChange} /> : null}
    </header>
  );
}
