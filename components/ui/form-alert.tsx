/** A form's error message above its submit button, announced when it appears. */
export function FormAlert({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
      {message}
    </p>
  ) : null;
}

/**
 * The form-level message of a refusal, or null when it is already said under a field. A field
 * refusal's message is its first field error (lib/core/error-answer.ts validationError), so a
 * form showing both said "Password must be at least 10 characters" twice: the alert is kept
 * for what no shown field says (a wrong invitation, a refused network, an error of a field
 * the form does not show).
 */
export function alertMessage(
  result: { message: string; fields?: Record<string, string> },
  shownFields: readonly string[],
): string | null {
  const fields = Object.entries(result.fields ?? {});
  const saidUnderFields =
    fields.length > 0 &&
    fields.every(([name]) => shownFields.includes(name)) &&
    fields.some(([, text]) => text === result.message);
  return saidUnderFields ? null : result.message;
}
