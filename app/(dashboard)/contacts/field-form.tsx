"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label } from "@/components/ui/classes";
import { createFieldAction } from "./actions";

export function FieldForm() {
  const toast = useToast();
  const router = useRouter();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
    setPending(true);
    const result = await createFieldAction(data);
    setPending(false);
    if (!result.ok) {
      setFields(result.fields ?? {});
      toast.error(result.message);
      return;
    }
    setFields({});
    form.reset();
    toast.success("Custom field added");
    router.refresh();
  }
  const err = (n: string) =>
    fields[`field.${n}`] ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{fields[`field.${n}`]}</p> : null;
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-4" noValidate>
      <div>
        <label htmlFor="field-key" className={label}>
          Key (snake_case)
        </label>
        <input id="field-key" name="key" required className={input} />
        {err("key")}
      </div>
      <div>
        <label htmlFor="field-label" className={label}>
          Label
        </label>
        <input id="field-label" name="label" required className={input} />
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
