// One message of the thread: a system note centred, or a bubble (outbound on the right) with
// the message it quotes above its text, the buttons it carried under it (greyed once the
// contact chose), who sent it, the time, the status ticks of an outbound message and why a
// failed one was not delivered, the reactions to it below, and its actions (Reply, React)
// when the thread offers them (docs/inbox.md).
import { formatDateTime } from "@/components/ui/format";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import { messageAnchor, QuotedMessage, ReactionList, SentInteractive } from "./bubble-extras";
import { isVoiceNote, mediaOf } from "./media-format";
import { type MessageActionHandlers, MessageActions } from "./message-actions";
import { MessageMedia } from "./message-media";
import { bubbleText, senderLabel, ticksOf, timeOf } from "./thread-format";

const TICK_TONE = {
  read: "text-sky-700 dark:text-sky-300",
  failed: "text-red-700 dark:text-red-300",
  muted: "text-slate-600 dark:text-slate-400",
} as const;

export function MessageBubble({
  m,
  actions,
  tapped,
}: {
  m: PublicConversationMessage;
  actions?: MessageActionHandlers;
  /** The id of the button or row the contact chose on this message, if they did. */
  tapped?: string;
}) {
  const media = mediaOf(m);
  // A file shows itself; its caption (if any) is the bubble's text.
  const text = media ? (media.caption ?? "") : bubbleText(m);
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
  return (
    <li
      id={messageAnchor(m.messageUid)}
      tabIndex={-1}
      className={`flex flex-col gap-1 rounded-lg focus:outline-none focus:ring-2 focus:ring-indigo-600 ${outbound ? "items-end" : "items-start"}`}
      data-testid="thread-message"
      data-direction={m.direction}
      data-status={m.status}
      data-type={m.type}
    >
      <div
        className={`max-w-[85%] min-w-0 rounded-lg px-3 py-2 shadow-sm ${
          outbound
            ? "rounded-br-none bg-indigo-100 text-slate-900 dark:bg-indigo-900 dark:text-slate-50"
            : "rounded-bl-none bg-white text-slate-900 dark:bg-slate-800 dark:text-slate-50"
        }`}
      >
        {m.replyTo ? <QuotedMessage quote={m.replyTo} /> : null}
        {media ? <MessageMedia media={media} outbound={outbound} voice={isVoiceNote(m)} /> : null}
        {text ? <p className={`whitespace-pre-wrap break-words text-sm ${media ? "mt-1" : ""}`}>{text}</p> : null}
        {m.interactive ? <SentInteractive interactive={m.interactive} tapped={tapped} /> : null}
        <p className="mt-1 flex flex-wrap items-center justify-end gap-x-2 text-xs text-slate-600 dark:text-slate-300">
          <span>{senderLabel(m)}</span>
          <time dateTime={m.timestamp} title={formatDateTime(m.timestamp)}>
            {timeOf(m.timestamp)}
          </time>
          {outbound ? (
            <span className={`font-semibold ${TICK_TONE[ticks.tone]}`} data-testid="ticks">
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
      <ReactionList reactions={m.reactions} />
      {actions ? <MessageActions m={m} {...actions} /> : null}
    </li>
  );
}
