// What a bubble shows besides its content (docs/inbox.md "Reactions and quoted replies"): the
// message it quotes, drawn above it (a click scrolls to that message and focuses it), and the
// reactions to it, drawn below it (the contact's and ours, the latest of each).
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";

type Quote = NonNullable<PublicConversationMessage["replyTo"]>;
type Reaction = PublicConversationMessage["reactions"][number];

/** The id of a message's row in the thread, for a quote to scroll to. */
export const messageAnchor = (messageUid: string) => `message-${messageUid}`;

function showMessage(messageUid: string): void {
  const row = document.getElementById(messageAnchor(messageUid));
  if (!row) return;
  row.scrollIntoView({ block: "center" });
  row.focus({ preventScroll: true });
}

const QUOTE =
  "mb-1 block w-full rounded border-l-4 border-indigo-600 bg-slate-100 px-2 py-1 text-left text-xs text-slate-800 dark:border-indigo-300 dark:bg-slate-700 dark:text-slate-100";

export function QuotedMessage({ quote }: { quote: Quote }) {
  const text = quote.preview ?? "A message that is not in this conversation";
  const messageId = quote.messageId;
  if (messageId === null) {
    return (
      <p className={QUOTE} data-testid="quoted-message">
        {text}
      </p>
    );
  }
  return (
    <button
      type="button"
      className={`${QUOTE} hover:bg-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:hover:bg-slate-600`}
      onClick={() => showMessage(messageId)}
      data-testid="quoted-message"
    >
      <span className="sr-only">Replying to: </span>
      <span className="line-clamp-2 break-words">{text}</span>
    </button>
  );
}

export function ReactionList({ reactions }: { reactions: Reaction[] }) {
  if (reactions.length === 0) return null;
  return (
    <ul className="-mt-1 flex gap-1 px-1" aria-label="Reactions" data-testid="reactions">
      {reactions.map((r) => (
        <li
          key={r.by}
          data-by={r.by}
          className="rounded-full border border-slate-300 bg-white px-1.5 text-sm leading-6 shadow-sm dark:border-slate-600 dark:bg-slate-900"
        >
          {r.emoji}
          <span className="sr-only">{r.by === "contact" ? " from the contact" : " from us"}</span>
        </li>
      ))}
    </ul>
  );
}

type Sent = NonNullable<PublicConversationMessage["interactive"]>;

const CHOICE = "rounded border px-2 py-0.5 text-center text-xs";

/**
 * The buttons, list button or link an outbound interactive message carried, under its text;
 * once the contact tapped one (or picked a row), every button is greyed and the chosen one
 * marked (docs/inbox.md "Reactions and quoted replies").
 */
export function SentInteractive({ interactive, tapped }: { interactive: Sent; tapped?: string }) {
  const answered = tapped !== undefined;
  const tone = answered
    ? "border-slate-300 bg-slate-100 text-slate-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-300"
    : "border-indigo-300 bg-white text-indigo-800 dark:border-indigo-700 dark:bg-slate-900 dark:text-indigo-200";
  // The API's shape (the Interactive schema); read defensively, as any stored payload.
  const parts = interactive as {
    buttons?: { id?: unknown; title?: unknown }[];
    list?: { button?: unknown };
    ctaUrl?: { displayText?: unknown };
  };
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const items =
    interactive.type === "buttons"
      ? (Array.isArray(parts.buttons) ? parts.buttons : []).map((b, i) => ({
          key: `${i}-${text(b.id)}`,
          label: text(b.title),
          chosen: tapped !== undefined && text(b.id) === tapped,
        }))
      : interactive.type === "list"
        ? [{ key: "list", label: `☰ ${text(parts.list?.button)}`, chosen: false }]
        : [{ key: "link", label: `↗ ${text(parts.ctaUrl?.displayText)}`, chosen: false }];
  return (
    <ul
      className="mt-1 flex flex-wrap gap-1"
      aria-label={answered ? "Buttons (answered)" : "Buttons"}
      data-testid="sent-interactive"
      data-answered={answered ? "true" : "false"}
    >
      {items.map((item) => (
        <li key={item.key} className={`${CHOICE} ${tone}`} data-chosen={item.chosen ? "true" : undefined}>
          {item.chosen ? <span aria-hidden="true">✓ </span> : null}
          {item.label}
          {item.chosen ? <span className="sr-only"> (the contact's choice)</span> : null}
        </li>
      ))}
    </ul>
  );
}
