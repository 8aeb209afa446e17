// A signed provider callback may carry text PostgreSQL cannot store (NUL, lone
// surrogates) as JSON escapes (\u0000, \ud800); it is still the provider's word, so it is
// kept with each such character replaced by U+FFFD (lib/core/storable-text.ts) instead
// of failing every time it is applied (docs/event-pipeline.md).
import { storableText, storableValue } from "@/lib/core/storable-text";

const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

/**
 * A callback body whose strings are all storable. Bodies without a suspicious escape (all
 * the provider's ordinary traffic) are returned as they are, unparsed; a cleaned body is
 * re-serialised. Not JSON: returned unchanged (validation refuses it).
 */
export function cleanCallbackBody(raw: string): string {
  const direct = storableText(raw); // a raw NUL or surrogate outside any escape
  if (!SUSPECT_ESCAPE.test(direct)) return direct;
  let parsed: unknown;
  try {
    parsed = JSON.parse(direct);
  } catch {
    return direct;
  }
  const { value, changed } = storableValue(parsed);
  return changed ? JSON.stringify(value) : direct;
}
