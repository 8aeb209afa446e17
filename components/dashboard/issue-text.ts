// A zod issue of a dashboard form's body in the form's own words (use-action-form.ts useBodyForm).

/**
 * An issue in the words of the form: a field the form names (`fields`, by the issue's path) is
 * called by its label, and a message that begins with the API's name of the field begins with
 * the label instead ("firstResponseMinutes must be at least 1" is "First response (minutes) must
 * be at least 1"); any other issue keeps its path.
 */
export function issueText(issue: { path: PropertyKey[]; message: string }, fields: Record<string, string> = {}) {
  const path = issue.path.map(String).join(".");
  // The field itself or one of its items ("policy.applies.labels" names "policy.applies.labels.2").
  const field = Object.keys(fields)
    .filter((k) => path === k || path.startsWith(`${k}.`))
    .sort((a, b) => b.length - a.length)[0];
  const name = field === undefined ? undefined : fields[field];
  if (field === undefined || name === undefined) return path ? `${path}: ${issue.message}` : issue.message;
  const key = field.split(".").at(-1) ?? "";
  return issue.message.startsWith(`${key} `)
    ? `${name}${issue.message.slice(key.length)}`
    : `${name}: ${issue.message}`;
}
