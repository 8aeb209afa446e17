// Text PostgreSQL cannot store: NUL (U+0000) and lone UTF-16 surrogates (text columns
// refuse NUL, jsonb refuses both). Where such text must be kept anyway (a provider's
// signed callback, a payload already on its way), each such character becomes U+FFFD.

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with NUL and lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD");
}

/** A JSON-like value with every string (keys included) made storable; `changed` tells whether any was. */
export function storableValue<T>(value: T): { value: T; changed: boolean } {
  const state = { changed: false };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const cleaned = storableText(v);
      if (cleaned !== v) state.changed = true;
      return cleaned;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) out[walk(key) as string] = walk(item);
      return out;
    }
    return v;
  };
  const cleaned = walk(value) as T;
  return { value: state.changed ? cleaned : value, changed: state.changed };
}

/**
 * False when the text holds a control character (C0 or DEL; with `allowNewlines`, tab, CR
 * and LF pass). Names and URLs have no place for them, and PostgreSQL text refuses NUL.
 */
export function hasNoControlChars(value: string, allowNewlines = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (allowNewlines && (code === 0x0a || code === 0x0d || code === 0x09)) continue;
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
