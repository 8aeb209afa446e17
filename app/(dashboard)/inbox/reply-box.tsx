"use client";
// The thread's reply box (docs/inbox.md): text while the customer service window is open
// (Enter sends, Shift+Enter breaks the line, `/` inserts a saved reply; one with buttons makes
// the text a buttons message, its buttons shown until sent or removed) with a file attached
// by the button, drag and drop or paste (use-attachment.tsx; the text is then its caption),
// else an approved template with its values; disabled for a blacklisted contact.
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import {
  type TemplateChoice,
  type TemplateFill,
  TemplateFillFields,
  useTemplateFill,
} from "@/components/dashboard/template-fill";
import { button, buttonSecondary, input, label, muted } from "@/components/ui/classes";
import { dashboardApi } from "@/lib/dashboard/client";
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import type { MediaKind } from "@/lib/domains/media/kinds";
import { type ReplyButton, useSavedReplyMenu } from "./saved-reply-menu";
import { bubbleText } from "./thread-format";
import { AttachmentChip, useAttachment } from "./use-attachment";

type ReplyMessage = (
  | { type: "text"; text: { body: string } }
  | { type: "template"; template: NonNullable<ReturnType<TemplateFill["sendTemplate"]>> }
  | { type: MediaKind; media: { id: string; caption?: string; filename?: string } }
  | { type: "buttons"; interactive: { body: string; buttons: ReplyButton[] } }
) & { replyTo?: string };

/** Kinds the provider shows a caption with (audio and stickers have none: their text goes as its own message). */
const CAPTIONED: readonly MediaKind[] = ["image", "video", "document"];

/** Files the attach button offers (the provider's table; anything else is refused with the API's words). */
const ACCEPT =
  "image/jpeg,image/png,image/webp,video/mp4,video/3gpp,audio/*,.pdf,.txt,.doc,.docx,.xls,.xlsx,.ppt,.pptx";

export function ReplyBox({
  uid,
  senderId,
  windowOpen,
  blacklisted,
  everWrote,
  templates,
  onSent,
  quoting = null,
  onQuoteDone = () => {},
}: {
  uid: string;
  /** The conversation's sender (E.164): an attached file is uploaded for it. */
  senderId: string;
  windowOpen: boolean;
  blacklisted: boolean;
  /** The contact wrote at least once (the closed-window notice says which case it is). */
  everWrote: boolean;
  templates: TemplateChoice[];
  onSent: () => void;
  /** The message the reply quotes ("Reply" on a message), if any. */
  quoting?: PublicConversationMessage | null;
  onQuoteDone?: () => void;
}) {
  const [text, setText] = useState("");
  const fill = useTemplateFill(templates);
  const [buttons, setButtons] = useState<ReplyButton[] | null>(null);
  const saved = useSavedReplyMenu(text, setText, setButtons);
  const file = useAttachment(senderId);
  const fileInput = useRef<HTMLInputElement>(null);
  const attachHint = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  // "Reply" on a message takes the focus to the text box.
  useEffect(() => {
    if (quoting) textRef.current?.focus();
  }, [quoting]);
  const post = (message: ReplyMessage) => dashboardApi.reply(uid, message);
  const typing = useTypingNotice(uid, windowOpen);
  const quoted = quoting ? { replyTo: quoting.messageUid } : {};
  const send = useMutation({
    mutationFn: async (message: ReplyMessage) => {
      await post({ ...message, ...quoted });
      // Audio and stickers take no caption: the text follows as a message of its own.
      const body = text.trim();
      if ("media" in message && !CAPTIONED.includes(message.type) && body) await post({ type: "text", text: { body } });
    },
    onSuccess: (_data, message) => {
      if (message.type === "template") fill.reset();
      else setText("");
      if ("media" in message) file.remove();
      if (message.type === "buttons") setButtons(null);
      onQuoteDone();
      onSent();
    },
  });
  const sendText = () => {
    const body = text.trim();
    if (send.isPending || blacklisted || file.uploading || (file.attached && !file.ready)) return;
    const media = file.ready;
    if (media) {
      send.mutate({
        type: media.kind,
        media: {
          id: media.mediaId,
          ...(body && CAPTIONED.includes(media.kind) ? { caption: body } : {}),
          ...(media.kind === "document" && media.filename ? { filename: media.filename } : {}),
        },
      });
      return;
    }
    if (body && buttons) send.mutate({ type: "buttons", interactive: { body, buttons } });
    else if (body) send.mutate({ type: "text", text: { body } });
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
  const quote = quoting ? (
    <div
      className="flex items-center justify-between gap-2 rounded border-l-4 border-indigo-600 bg-slate-100 px-2 py-1 text-sm text-slate-800 dark:border-indigo-300 dark:bg-slate-800 dark:text-slate-100"
      data-testid="reply-quote"
    >
      <span className="min-w-0 truncate">Replying to: {bubbleText(quoting) || `[${quoting.type}]`}</span>
      <button type="button" className={buttonSecondary} onClick={onQuoteDone}>
        Cancel quote
      </button>
    </div>
  ) : null;
  const status = (
    <p role="status" className={muted}>
      {send.isError ? <span className="text-red-700 dark:text-red-300">{send.error.message}</span> : null}
    </p>
  );

  if (windowOpen || blacklisted) {
    return (
      <form
        onSubmit={submitText}
        aria-label="Reply"
        className={`space-y-2 rounded-md ${file.dragging ? "outline-2 outline-offset-4 outline-dashed outline-indigo-600" : ""}`}
        {...(blacklisted ? {} : file.dropZone)}
        data-testid="reply-form"
      >
        <label htmlFor="reply-text" className={label}>
          Reply
        </label>
        {quote}
        <textarea
          ref={textRef}
          id="reply-text"
          className={input}
          rows={2}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            typing();
          }}
          onKeyDown={onKeyDown}
          onPaste={file.onPaste}
          disabled={blacklisted}
          aria-describedby={`reply-hint ${attachHint}`}
          maxLength={4096}
          aria-controls={saved.open ? "saved-reply-menu" : undefined}
          aria-autocomplete="list"
          aria-activedescendant={saved.activeId}
        />
        {saved.menu}
        {buttons && !file.attached ? (
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="reply-buttons">
            <span className={muted}>Sent as a message with buttons:</span>
            <ul className="flex flex-wrap gap-1" aria-label="Reply buttons">
              {buttons.map((b) => (
                <li key={b.id} className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-600">
                  {b.title}
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setButtons(null)}
              disabled={send.isPending}
            >
              Remove buttons
            </button>
          </div>
        ) : null}
        <AttachmentChip state={file} disabled={send.isPending} />
        {file.refusal ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="attachment-refusal">
            {file.refusal}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            className={button}
            disabled={blacklisted || send.isPending || (file.attached ? !file.ready : !text.trim())}
          >
            {send.isPending ? "Sending…" : file.attached ? "Send file" : buttons ? "Send with buttons" : "Send"}
          </button>
          <button
            type="button"
            className={buttonSecondary}
            onClick={() => fileInput.current?.click()}
            disabled={blacklisted || send.isPending}
          >
            Attach a file
          </button>
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPT}
            className="hidden"
            data-testid="attach-input"
            onChange={(e) => {
              file.fromList(e.target.files);
              e.target.value = "";
            }}
          />
          <p id="reply-hint" className={muted}>
            {blacklisted
              ? "Replies are disabled: the contact is blacklisted."
              : "Enter sends, Shift+Enter adds a line, / inserts a saved reply."}
          </p>
        </div>
        <p id={attachHint} className="sr-only">
          {file.attached
            ? "The text is sent as the file's caption."
            : "Attach a file with the button, by dropping it on the reply box, or by pasting it."}
        </p>
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
      {quote}
      <TemplateFillFields id="reply" templates={templates} fill={fill} />
      <button type="submit" className={button} disabled={send.isPending || !fill.template}>
        {send.isPending ? "Sending…" : "Send template"}
      </button>
      {status}
    </form>
  );
}

/** The server shows the indicator at most once per 20 s; the box asks at most once per 5 s. */
const TYPING_ASK_MS = 5_000;

/** Tells the server the agent is typing (the contact's typing indicator); failures are ignored. */
function useTypingNotice(uid: string, windowOpen: boolean): () => void {
  const last = useRef(0);
  return () => {
    const now = Date.now();
    if (!windowOpen || now - last.current < TYPING_ASK_MS) return;
    last.current = now;
    void dashboardApi.typing(uid).catch(() => {});
  };
}
