"use client";
// "Reply" and "React" under each message the provider knows (docs/inbox.md "Reactions and
// quoted replies"): Reply quotes it in the reply box; React offers a few emoji and, when we
// reacted already, removing ours.
import { useState } from "react";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";

const EMOJI = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

const ACTION =
  "rounded px-1.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 disabled:opacity-60 dark:text-slate-300 dark:hover:bg-slate-800";

export type MessageActionHandlers = {
  onReply: (m: PublicConversationMessage) => void;
  onReact: (m: PublicConversationMessage, emoji: string) => void;
  reacting: boolean;
};

export function MessageActions({
  m,
  onReply,
  onReact,
  reacting,
}: { m: PublicConversationMessage } & MessageActionHandlers) {
  const [picking, setPicking] = useState(false);
  if (m.providerMessageId === null || m.direction === "system") return null;
  const ours = m.reactions.find((r) => r.by === "business")?.emoji;
  const react = (emoji: string) => {
    setPicking(false);
    onReact(m, emoji);
  };
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid="message-actions">
      <button type="button" className={ACTION} onClick={() => onReply(m)}>
        Reply
      </button>
      <button type="button" className={ACTION} aria-expanded={picking} onClick={() => setPicking(!picking)}>
        React
      </button>
      {picking ? (
        <fieldset className="flex flex-wrap items-center gap-0.5" aria-label="Pick a reaction">
          {EMOJI.map((e) => (
            <button
              key={e}
              type="button"
              className={`${ACTION} text-base ${ours === e ? "bg-indigo-100 dark:bg-indigo-900" : ""}`}
              aria-label={`React with ${e}`}
              aria-pressed={ours === e}
              disabled={reacting}
              onClick={() => react(e)}
            >
              {e}
            </button>
          ))}
          {ours ? (
            <button type="button" className={ACTION} disabled={reacting} onClick={() => react("")}>
              Remove reaction
            </button>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
