// Retry timing (webhook deliveries, chatbot replies, emails): exponential backoff with full jitter
// (delay = random(0, min(cap, base * 2^(attempt-1)))), and the receiver's Retry-After.

export function retryDelayMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.min(1, Math.max(0, random())) * ceiling);
}

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Retry-After as milliseconds from now (delta-seconds or an HTTP date); null when absent or bad. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Math.round(Number(text) * 1000));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}
