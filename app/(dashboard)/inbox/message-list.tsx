"use client";
// The thread's messages, oldest first, in a scrollable log: "Show older messages" above them
// while older pages remain, a separator before each day's first message, and the newest kept
// in view when one arrives (not when older ones are added above).
import { useEffect, useRef } from "react";
import { buttonSecondary } from "@/components/ui/classes";
import { formatCount } from "@/lib/core/count";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import type { MessageActionHandlers } from "./message-actions";
import { MessageBubble } from "./message-bubble";
import { withDaySeparators } from "./thread-format";

export function MessageList({
  name,
  messages,
  total,
  now,
  loadingOlder,
  onShowOlder,
  actions,
}: {
  /** The contact's name or number: the log is "Messages with <name>". */
  name: string;
  messages: PublicConversationMessage[];
  /** Every message of the conversation, loaded or not. */
  total: number;
  now: number;
  loadingOlder: boolean;
  onShowOlder: () => void;
  /** Reply and React on each message. */
  actions?: MessageActionHandlers;
}) {
  const logRef = useRef<HTMLDivElement>(null);
  // The contact's taps and picks, by the message they answer (the latest wins).
  const tapped = new Map<string, string>();
  for (const m of messages) if (m.reply && m.replyTo?.messageId) tapped.set(m.replyTo.messageId, m.reply.id);
  const newest = messages.at(-1)?.messageUid;
  useEffect(() => {
    if (newest && logRef.current) logRef.current.scrollTop = logRef.current.scrollHeight;
  }, [newest]);
  return (
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
          <button type="button" className={buttonSecondary} onClick={onShowOlder} disabled={loadingOlder}>
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
            <MessageBubble
              key={item.key}
              m={item.message}
              actions={actions}
              tapped={tapped.get(item.message.messageUid)}
            />
          ),
        )}
      </ol>
    </div>
  );
}
