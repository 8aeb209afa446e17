"use client";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { createFieldAction } from "./actions";

export function FieldForm() {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => createFieldAction({ field: formStrings(data) }),
    success: "Custom field added",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  const err = (n: string) => <FieldMessage inputId={`field-${n}`} message={fields[n]} />;
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-4" noValidate>
      <div>
        <label htmlFor="field-key" className={label}>
          Key (snake_case)
        </label>
        <input id="field-key" name="key" required className={input} {...errorProps("field-key", fields.key)} />
        {err("key")}
      </div>
      <div>
        <label htmlFor="field-label" className={label}>
          Label
        </label>
        <input id="field-label" name="label" required className={input} {...errorProps("field-label", fields.label)} />
        {err("label")}
      </div>
      <div>
        <label htmlFor="field-type" className={label}>
          Type
        </label>
        <select id="field-type" name="type" className={input} defaultValue="text">
          <option value="text">Text</option>
          <option value="number">Number</option>
          <option value="boolean">Yes / no</option>
          <option value="date">Date</option>
        </select>
      </div>
      <div className="flex items-end">
        <button type="submit" className={button} disabled={pending}>
          Add field
        </button>
      </div>
    </form>
  );
}
