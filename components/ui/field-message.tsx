// A field's error under the field, tied to its input for screen readers (errorProps).
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
