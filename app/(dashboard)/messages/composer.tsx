"use client";
// Sends a template or a session text through /api/dashboard/messages (the same service and
// checks as the public API), then refreshes the log.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { PhoneCountrySelect } from "@/components/dashboard/phone-country-select";
import { SenderInForce, type SenderInForceInfo } from "@/components/dashboard/sender-in-force";
import { type TemplateChoice, TemplateFillFields, useTemplateFill } from "@/components/dashboard/template-fill";
import { button, card, input, label, muted } from "@/components/ui/classes";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";

export function Composer({
  sender,
  senderChosen,
  setUp,
  templates,
}: {
  sender: SenderInForceInfo;
  /** Whether the sender was picked in the header rather than defaulted. */
  senderChosen: boolean;
  setUp: boolean;
  templates: TemplateChoice[];
}) {
  const senderId = sender.phoneNumber;
  const [mode, setMode] = useState<"template" | "session">(templates.length ? "template" : "session");
  const [to, setTo] = useState("");
  const [country, setCountry] = useState("");
  const fill = useTemplateFill(templates);
  const [text, setText] = useState("");
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: async () => {
      const recipient = { to, country: country || undefined };
      const body =
        mode === "template"
          ? { mode, senderId, ...recipient, template: fill.sendTemplate() }
          : { mode, senderId, ...recipient, text };
      return (await dashboardApi.send(body)).message;
    },
    onSuccess: () => {
      // Sent: the message box empties for the next one (the recipient stays, for a follow-up).
      setText("");
      return queryClient.invalidateQueries({ queryKey: queryKeys.messages(senderId) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  return (
    <form onSubmit={submit} className={`${card} space-y-4`} aria-label="Send a message">
      <h2 className="text-lg font-semibold">Send a message</h2>
      <SenderInForce sender={sender} chosen={senderChosen} lead="Sends from" />
      {!setUp && <p className="text-sm text-amber-800 dark:text-amber-300">This sender has not finished setup.</p>}
      <fieldset className="flex gap-4">
        <legend className="sr-only">Message kind</legend>
        {(["template", "session"] as const).map((m) => (
          <label key={m} className="flex items-center gap-2 text-sm">
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            {m === "template" ? "Approved template" : "Session message"}
          </label>
        ))}
      </fieldset>
      <div>
        <label htmlFor="composer-to" className={label}>
          Recipient (with + and country code)
        </label>
        <input
          id="composer-to"
          className={input}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder="+1 415 555 0123"
          inputMode="tel"
          required
        />
      </div>
      <PhoneCountrySelect id="composer-country" value={country} onChange={setCountry} />
      {mode === "template" ? (
        <TemplateFillFields id="composer" templates={templates} fill={fill} />
      ) : (
        <div>
          <label htmlFor="composer-text" className={label}>
            Message
          </label>
          <textarea
            id="composer-text"
            className={input}
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            required
          />
        </div>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" className={button} disabled={send.isPending || !setUp}>
          {send.isPending ? "Sending…" : "Send"}
        </button>
        <p role="status" className={muted}>
          {send.isError ? <span className="text-red-700 dark:text-red-300">{send.error.message}</span> : null}
          {send.isSuccess ? `Accepted: ${send.data.messageId ?? send.data.messageUid} (${send.data.status})` : null}
        </p>
      </div>
    </form>
  );
}
