"use client";
// The inbox settings page's forms: add a saved reply, change or delete one, and a sender's
// auto-assignment (on/off and the cap of open conversations per agent).
import { useState } from "react";
import { useAction, useActionForm } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import {
  createSavedReplyAction,
  deleteSavedReplyAction,
  setAutoAssignAction,
  setReadReceiptsAction,
  updateSavedReplyAction,
} from "./actions";

type ButtonValue = { id: string; title: string };

/** The form's reply: shortcut, text and the button rows filled in (a row left empty is no button). */
function replyOf(data: FormData) {
  const get = (name: string) => String(data.get(name) ?? "");
  const buttons = [0, 1, 2].flatMap((i) => {
    const title = get(`buttons.${i}.title`).trim();
    const id = get(`buttons.${i}.id`).trim();
    return title || id ? [{ id, title }] : [];
  });
  return { shortcut: get("shortcut"), text: get("text"), buttons };
}

function ReplyFields({
  idPrefix,
  fields,
  shortcut,
  text,
  buttons,
}: {
  idPrefix: string;
  fields: Record<string, string>;
  shortcut?: string;
  text?: string;
  buttons?: ButtonValue[] | null;
}) {
  // Field errors are keyed by the last name of their path; a button's message names the button.
  const buttonsError = fields.title ?? fields.id ?? fields.buttons;
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-shortcut`} className={label}>
          Shortcut
        </label>
        <input
          id={`${idPrefix}-shortcut`}
          name="shortcut"
          required
          defaultValue={shortcut}
          className={`${input} font-mono`}
          placeholder="thanks"
          {...errorProps(`${idPrefix}-shortcut`, fields.shortcut)}
        />
        <FieldMessage inputId={`${idPrefix}-shortcut`} message={fields.shortcut} />
      </div>
      <div className="md:col-span-2">
        <label htmlFor={`${idPrefix}-text`} className={label}>
          Text
        </label>
        <textarea
          id={`${idPrefix}-text`}
          name="text"
          required
          rows={2}
          maxLength={4096}
          defaultValue={text}
          className={input}
          {...errorProps(`${idPrefix}-text`, fields.text)}
        />
        <FieldMessage inputId={`${idPrefix}-text`} message={fields.text} />
      </div>
      <fieldset
        className="grid gap-2 md:col-span-3 md:grid-cols-3"
        aria-describedby={buttonsError ? `${idPrefix}-buttons-error` : undefined}
      >
        <legend className={label}>Reply buttons (optional, up to 3; the reply then goes out with them)</legend>
        {[0, 1, 2].map((i) => {
          const title = `${idPrefix}-button-${i}-title`;
          const id = `${idPrefix}-button-${i}-id`;
          return (
            <div key={title} className="grid grid-cols-2 gap-2">
              <div>
                <label htmlFor={title} className={label}>
                  Button {i + 1} title
                </label>
                <input
                  id={title}
                  name={`buttons.${i}.title`}
                  maxLength={20}
                  defaultValue={buttons?.[i]?.title}
                  className={input}
                />
              </div>
              <div>
                <label htmlFor={id} className={label}>
                  Button {i + 1} reply id
                </label>
                <input
                  id={id}
                  name={`buttons.${i}.id`}
                  maxLength={256}
                  defaultValue={buttons?.[i]?.id}
                  className={`${input} font-mono`}
                />
              </div>
            </div>
          );
        })}
        <div className="md:col-span-3">
          <FieldMessage inputId={`${idPrefix}-buttons`} message={buttonsError} />
        </div>
      </fieldset>
    </>
  );
}

export function SavedReplyForm() {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => createSavedReplyAction(replyOf(data)),
    success: "Saved reply added",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 md:grid-cols-3" noValidate aria-label="Add a saved reply">
      <ReplyFields idPrefix="new-reply" fields={fields} />
      <div>
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Adding…" : "Add saved reply"}
        </button>
      </div>
    </form>
  );
}

export function SavedReplyControls({
  id,
  shortcut,
  text,
  buttons,
}: {
  id: string;
  shortcut: string;
  text: string;
  buttons: ButtonValue[] | null;
}) {
  const [editing, setEditing] = useState(false);
  const remove = useAction();
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => updateSavedReplyAction({ ...replyOf(data), id }),
    success: `/${shortcut} saved`,
    onSuccess: ({ router }) => {
      setEditing(false);
      router.refresh();
    },
  });
  if (editing) {
    return (
      <form onSubmit={onSubmit} className="grid gap-2" noValidate aria-label={`Change /${shortcut}`}>
        <ReplyFields idPrefix={`reply-${id}`} fields={fields} shortcut={shortcut} text={text} buttons={buttons} />
        <div className="flex gap-2">
          <button type="submit" className={button} disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </button>
          <button type="button" className={buttonSecondary} onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        className={buttonSecondary}
        onClick={() => setEditing(true)}
        aria-label={`Change /${shortcut}`}
      >
        Change
      </button>
      <ConfirmButton
        label={remove.pending ? "Deleting…" : "Delete"}
        title={`Delete /${shortcut}?`}
        confirmLabel="Delete saved reply"
        disabled={remove.pending}
        onConfirm={() => remove.run(() => deleteSavedReplyAction({ id }), `/${shortcut} deleted`)}
      >
        The shortcut stops working in every reply box at once.
      </ConfirmButton>
    </div>
  );
}

export function AutoAssignForm({ sender, autoAssign, cap }: { sender: string; autoAssign: boolean; cap: number }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) =>
      setAutoAssignAction({ sender, autoAssign: data.get("autoAssign") === "on", cap: String(data.get("cap") ?? "") }),
    success: `Auto-assignment of ${sender} saved`,
  });
  const idPrefix = `auto-${sender.replace(/\D/g, "")}`;
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-wrap items-end gap-3"
      noValidate
      aria-label={`Auto-assignment of ${sender}`}
    >
      <span className="font-mono text-sm">{sender}</span>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="autoAssign" defaultChecked={autoAssign} />
        Auto-assign
      </label>
      <div>
        <label htmlFor={`${idPrefix}-cap`} className={label}>
          Open conversations per agent (cap)
        </label>
        <input
          id={`${idPrefix}-cap`}
          name="cap"
          type="number"
          min={1}
          max={1000}
          defaultValue={cap}
          className={`${input} w-28`}
          {...errorProps(`${idPrefix}-cap`, fields.cap)}
        />
        <FieldMessage inputId={`${idPrefix}-cap`} message={fields.cap} />
      </div>
      <button type="submit" className={buttonSecondary} disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

export function ReadReceiptsForm({ enabled }: { enabled: boolean }) {
  const { onSubmit, pending } = useActionForm({
    action: (data) => setReadReceiptsAction({ enabled: data.get("enabled") === "on" }),
    success: "Read receipts saved",
  });
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate aria-label="Read receipts">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={enabled} />
        Send read receipts and typing indicators
      </label>
      <button type="submit" className={buttonSecondary} disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}
