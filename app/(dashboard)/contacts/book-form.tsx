"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label } from "@/components/ui/classes";
import { createBookAction, updateBookAction } from "./actions";

type Book = { uid: string; name: string; description: string; color: string; status: string };

/** Create (no book) or edit (a book) a contact book: name, description, colour, status. */
export function BookForm({ book }: { book?: Book }) {
  const toast = useToast();
  const router = useRouter();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const id = (n: string) => `${book ? "edit" : "new"}-book-${n}`;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
    setPending(true);
    const result = book ? await updateBookAction(book.uid, data) : await createBookAction(data);
    setPending(false);
    if (!result.ok) {
      setFields(result.fields ?? {});
      toast.error(result.message);
      return;
    }
    setFields({});
    toast.success(book ? "Contact book saved" : "Contact book created");
    if (!book && result.data && typeof result.data === "object" && "uid" in result.data) {
      router.push(`/contacts/${result.data.uid}`);
    } else router.refresh();
  }

  const err = (n: string) =>
    fields[n] ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{fields[n]}</p> : null;

  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
      <div>
        <label htmlFor={id("name")} className={label}>
          Book name
        </label>
        <input id={id("name")} name="name" defaultValue={book?.name} required className={input} />
        {err("name")}
      </div>
      <div>
        <label htmlFor={id("description")} className={label}>
          Description
        </label>
        <input id={id("description")} name="description" defaultValue={book?.description} className={input} />
        {err("description")}
      </div>
      <div>
        <label htmlFor={id("color")} className={label}>
          Colour
        </label>
        <input
          id={id("color")}
          name="color"
          type="color"
          defaultValue={book?.color ?? "#4F46E5"}
          className="h-10 w-20 rounded border border-slate-300 dark:border-slate-600"
        />
        {err("color")}
      </div>
      <div>
        <label htmlFor={id("status")} className={label}>
          Status
        </label>
        <select id={id("status")} name="status" defaultValue={book?.status ?? "ACTIVE"} className={input}>
          <option value="ACTIVE">Active</option>
          <option value="INACTIVE">Inactive</option>
        </select>
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Saving…" : book ? "Save book" : "Create book"}
        </button>
      </div>
    </form>
  );
}
