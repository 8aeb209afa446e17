// One colour per series key, the same whatever else a filtered view holds: known keys
// (pricing categories, request outcomes) have their own colour, any other key a colour
// picked from its name. So "utility" is teal in every billing view.
// See docs/dashboard.md.

const PALETTE = ["#4338ca", "#0f766e", "#b45309", "#be123c", "#6d28d9", "#15803d", "#0369a1", "#a16207"];

const KNOWN: Record<string, string> = {
  marketing: "#4338ca",
  utility: "#0f766e",
  authentication: "#b45309",
  service: "#15803d",
  marketing_lite: "#6d28d9",
  authentication_international: "#a16207",
  referral_conversion: "#0369a1",
  uncategorised: "#475569",
  ok: "#0f766e",
  errors: "#be123c",
  // Message outcomes (the analytics page).
  read: "#15803d",
  delivered: "#0369a1",
  failed: "#be123c",
  "sent or pending": "#475569",
};

/** FNV-1a: a stable, well-spread number from a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function seriesColor(key: string): string {
  return KNOWN[key] ?? PALETTE[hash(key) % PALETTE.length] ?? "#475569";
}
