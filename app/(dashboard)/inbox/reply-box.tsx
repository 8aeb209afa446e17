"use client";
// The thread's reply box (docs/inbox.md): text while the customer service window is open
// (Enter sends, Shift+Enter breaks the line, `/` inserts a saved reply), else an approved
// template with its values; disabled for a blacklisted contact.
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useState } from "react";
import {
  type TemplateChoice,
  type TemplateFill,
  TemplateFillFields,
  useTemplateFill,
} from "@/components/dashboard/template-fill";
import { button, input, label, muted } from "@/components/ui/classes";
import { postJson } from "./post-json";
import { useSavedReplyMenu } from "./saved-reply-menu";

type ReplyMessage =
  | { type: "text"; text: { body: string } }
  | { type: "template"; template: NonNullable<ReturnType<TemplateFill["sendTemplate"]>> };

export function ReplyBox({
  uid,
  windowOpen,
  blacklisted,
  everWrote,
  templates,
  onSent,
}: {
  uid: string;
  windowOpen: boolean;
  blacklisted: boolean;
  /** The contact wrote at least once (the closed-window notice says which case it is). */
  everWrote: boolean;
  templates: TemplateChoice[];
  onSent: () => void;
}) {
  const [text, setText] = useState("");
  const fill = useTemplateFill(templates);
  const saved = useSavedReplyMenu(text, setText);
  const send = useMutation({
    mutationFn: (message: ReplyMessage) =>
      postJson(`/api/dashboard/conversations/${encodeURIComponent(uid)}/messages`, { message }),
    onSuccess: (_data, message) => {
      if (message.type === "text") setText("");
      else fill.reset();
      onSent();
    },
  });
  const sendText = () => {
    const body = text.trim();
    if (!body || send.isPending || blacklisted) return;
    send.mutate({ type: "text", text: { body } });
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
  const status = (
    <p role="status" className={muted}>
      {send.isError ? <span className="text-red-700 dark:text-red-300">{send.error.message}</span> : null}
    </p>
  );

  if (windowOpen || blacklisted) {
    return (
      <form onSubmit={submitText} aria-label="Reply" className="space-y-2">
        <label htmlFor="reply-text" className={label}>
          Reply
        </label>
        <textarea
          id="reply-text"
          className={input}
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={blacklisted}
          aria-describedby="reply-hint"
          maxLength={4096}
          aria-controls={saved.open ? "saved-reply-menu" : undefined}
          aria-autocomplete="list"
          aria-activedescendant={saved.activeId}
        />
        {saved.menu}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={button} disabled={blacklisted || send.isPending || !text.trim()}>
            {send.isPending ? "Sending…" : "Send"}
          </button>
          <p id="reply-hint" className={muted}>
            {blacklisted
              ? "Replies are disabled: the contact is blacklisted."
              : "Enter sends, Shift+Enter adds a line, / inserts a saved reply."}
          </p>
        </div>
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
      <TemplateFillFields id="reply" templates={templates} fill={fill} />
      <button type="submit" className={button} disabled={send.isPending || !fill.template}>
        {send.isPending ? "Sending…" : "Send template"}
      </button>
      {status}
    </form>
  );
}
