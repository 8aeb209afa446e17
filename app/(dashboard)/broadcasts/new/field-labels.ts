// The form's label of each field the broadcast schema names (lib/domains/broadcasts/schemas.ts),
// so an error under a field, from the browser's check or the server's, says what the person sees.
export const FIELD_LABELS: Record<string, string> = {
  "template.name": "Template",
  "template.language": "Template language",
  contactBookUids: "Contact books",
  phoneNumbers: "Phone numbers",
  maxPerSecond: "Pace (messages per second)",
  scheduledAt: "Start time",
  "variables.body": "Variables",
  "variables.header": "Header variable",
};

/** A message with the schema's names replaced by the form's labels. */
export function withFieldLabels(text: string): string {
  return Object.entries(FIELD_LABELS).reduce(
    (t, [name, label]) => t.replace(new RegExp(`(?<![\\w.])${name.replaceAll(".", "\\.")}\\b`, "g"), label),
    text,
  );
}
