// What the Source column of the template list and page says (docs/templates.md "The list"):
// where the template came from, which the API's `source` (AUTO_GENERATED or MANUAL, fixed by
// the contract) cannot tell apart for a template first read from the provider by a sync.
export function sourceText(t: { source: string; origin: string | null }): string {
  if (t.source === "AUTO_GENERATED") return "auto-generated";
  if (t.origin === "provider") return "synced from the provider";
  if (t.origin === "switchboard") return "created here";
  return "manual";
}
