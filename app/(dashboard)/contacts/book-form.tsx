"use client";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { createBookAction, updateBookAction } from "./actions";

type Book = { uid: string; name: string; description: string; color: string; status: string };

/** Create (no book) or edit (a book) a contact book: name, description, colour, status. */
export function BookForm({ book }: { book?: Book }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) =>
      book ? updateBookAction({ uid: book.uid, contactBook: formStrings(data) }) : createBookAction(formStrings(data)),
    success: book ? "Contact book saved" : "Contact book created",
    onSuccess: ({ data, router }) => {
      if (!book) router.push(`/contacts/${data.uid}`);
      else router.refresh();
    },
  });
  const id = (n: string) => `${book ? "edit" : "new"}-book-${n}`;
  const err = (n: string) => <FieldMessage inputId={id(n)} message={fields[n]} />;

  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
      <div>
        <label htmlFor={id("name")} className={label}>
          Book name
        </label>
        <input
          id={id("name")}
          name="name"
          defaultValue={book?.name}
          required
          className={input}
          {...errorProps(id("name"), fields.name)}
        />
        {err("name")}
      </div>
      <div>
        <label htmlFor={id("description")} className={label}>
          Description
        </label>
        <input
          id={id("description")}
          name="description"
          defaultValue={book?.description}
          className={input}
          {...errorProps(id("description"), fields.description)}
        />
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
