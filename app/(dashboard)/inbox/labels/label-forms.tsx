"use client";
// The labels page's forms: create a label, change one (name, colour, description), delete one.
import { useState } from "react";
import { formStrings, useAction, useActionForm } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { LABEL_COLORS, LABEL_NAME_MAX, type LabelColor } from "@/lib/domains/labels/schemas";
import { createLabelAction, deleteLabelAction, updateLabelAction } from "./actions";

type Label = { id: string; name: string; color: LabelColor; description: string };

function LabelFields({ idPrefix, fields, value }: { idPrefix: string; fields: Record<string, string>; value?: Label }) {
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-name`} className={label}>
          Name
        </label>
        <input
          id={`${idPrefix}-name`}
          name="name"
          required
          maxLength={LABEL_NAME_MAX}
          defaultValue={value?.name}
          className={input}
          placeholder="refund"
          {...errorProps(`${idPrefix}-name`, fields.name)}
        />
        <FieldMessage inputId={`${idPrefix}-name`} message={fields.name} />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-color`} className={label}>
          Colour
        </label>
        <select
          id={`${idPrefix}-color`}
          name="color"
          defaultValue={value?.color ?? "gray"}
          className={input}
          {...errorProps(`${idPrefix}-color`, fields.color)}
        >
          {LABEL_COLORS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <FieldMessage inputId={`${idPrefix}-color`} message={fields.color} />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-description`} className={label}>
          Description
        </label>
        <input
          id={`${idPrefix}-description`}
          name="description"
          maxLength={200}
          defaultValue={value?.description}
          className={input}
          {...errorProps(`${idPrefix}-description`, fields.description)}
        />
        <FieldMessage inputId={`${idPrefix}-description`} message={fields.description} />
      </div>
    </>
  );
}

export function LabelForm() {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => createLabelAction(formStrings(data)),
    success: "Label created",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 md:grid-cols-4" noValidate aria-label="Create a label">
      <LabelFields idPrefix="new-label" fields={fields} />
      <div className="self-end">
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Creating…" : "Create label"}
        </button>
      </div>
    </form>
  );
}

export function LabelControls({ value }: { value: Label }) {
  const [editing, setEditing] = useState(false);
  const remove = useAction();
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => updateLabelAction({ ...formStrings(data), id: value.id }),
    success: "Label saved",
    onSuccess: ({ router }) => {
      setEditing(false);
      router.refresh();
    },
  });
  if (editing) {
    return (
      <form onSubmit={onSubmit} className="grid gap-2" noValidate aria-label={`Change label ${value.name}`}>
        <LabelFields idPrefix={`label-${value.id}`} fields={fields} value={value} />
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
        aria-label={`Change label ${value.name}`}
      >
        Change
      </button>
      <ConfirmButton
        label={remove.pending ? "Deleting…" : "Delete"}
        title={`Delete the label ${value.name}?`}
        confirmLabel="Delete label"
        disabled={remove.pending}
        onConfirm={() => remove.run(() => deleteLabelAction({ id: value.id }), `Label ${value.name} deleted`)}
      >
        It comes off every conversation and contact that carries it.
      </ConfirmButton>
    </div>
  );
}
