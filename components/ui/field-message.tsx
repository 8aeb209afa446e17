// A field's error under the field, tied to its input for screen readers (errorProps).
import type { InputHTMLAttributes, ReactNode } from "react";
import { input, label } from "@/components/ui/classes";

export const errorId = (inputId: string) => `${inputId}-error`;

/** aria-invalid and aria-describedby for an input whose field has an error. */
export const errorProps = (inputId: string, message: string | undefined) =>
  message ? { "aria-invalid": true, "aria-describedby": errorId(inputId) } : {};

export function FieldMessage({ inputId, message }: { inputId: string; message: string | undefined }) {
  return message ? (
    <p id={errorId(inputId)} className="mt-1 text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  ) : null;
}

/** A labelled text input with its error under it; other input attributes pass through. */
export function TextField({
  id,
  label: text,
  message,
  ...inputProps
}: { id: string; label: ReactNode; message: string | undefined } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "className"
>) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <input id={id} className={input} {...inputProps} {...errorProps(id, message)} />
      <FieldMessage inputId={id} message={message} />
    </div>
  );
}
