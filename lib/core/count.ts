// Counts said to people (dashboard pages, messages of refusals): one format everywhere, so a
// page never shows "50004 total" beside "50,004" or "1 minutes".

/** A count grouped by thousands: "50,004". */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A count with its noun, grouped and agreeing: "1 template", "50,004 messages". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

/** A wait said in whole minutes, rounded up (at least one): "1 minute", "15 minutes". */
export function minutesOfWait(seconds: number): string {
  return countOf(Math.max(1, Math.ceil(seconds / 60)), "minute");
}
