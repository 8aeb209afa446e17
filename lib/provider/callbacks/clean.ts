// Text PostgreSQL cannot store: NUL (U+0000) and lone UTF-16 surrogates. A signed provider
// callback may carry either as a JSON escape (\u0000, \ud800); it is still the provider's
// word, so it is kept, with each such character replaced by U+FFFD, instead of failing
// every time it is applied (docs/event-pipeline.md).

const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with NUL and lone surrogates replaced by U+FFFD. */
export function cleanText(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD");
}

function cleanValue(value: unknown, changed: { any: boolean }): unknown {
  if (typeof value === "string") {
    const cleaned = cleanText(value);
    if (cleaned !== value) changed.any = true;
    return cleaned;
  }
  if (Array.isArray(value)) return value.map((v) => cleanValue(v, changed));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[cleanValue(key, changed) as string] = cleanValue(v, changed);
    return out;
  }
  return value;
}

/**
 * A callback body whose strings are all storable. Bodies without a suspicious escape (all
 * the provider's ordinary traffic) are returned as they are, unparsed; a cleaned body is
 * re-serialised. Not JSON: returned unchanged (validation refuses it).
 */
export function cleanCallbackBody(raw: string): string {
  const direct = cleanText(raw); // a raw NUL or surrogate outside any escape
  if (!SUSPECT_ESCAPE.test(direct)) return direct;
  let parsed: unknown;
  try {
    parsed = JSON.parse(direct);
  } catch {
    return direct;
  }
  const changed = { any: false };
  const cleaned = cleanValue(parsed, changed);
  return changed.any ? JSON.stringify(cleaned) : direct;
}
