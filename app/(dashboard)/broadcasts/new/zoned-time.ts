// A date and time on the wall clock of a time zone, as the UTC instant a broadcast stores
// (scheduledAt), and back for the review: Intl alone, no time zone library in the bundle.

/** The zone's offset from UTC at this instant, in milliseconds (Paris in winter: +3,600,000). */
function offsetAt(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * "2026-12-01", "09:00" in "Europe/Paris" as an ISO instant ("2026-12-01T08:00:00.000Z");
 * null when the date, time or zone is not one. A wall time skipped by a daylight-saving jump
 * lands after the jump.
 */
export function zonedToUtc(date: string, time: string, zone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(wall)) return null;
  try {
    // Twice: the offset at the first guess may differ from the offset at the answer (a DST change between).
    const guess = wall - offsetAt(wall, zone);
    return new Date(wall - offsetAt(guess, zone)).toISOString();
  } catch {
    return null;
  }
}

/** An instant on the zone's wall clock: "2026-12-01 09:00". */
export function utcToZoned(iso: string, zone: string): string {
  const instant = new Date(iso).getTime();
  return new Date(instant + offsetAt(instant, zone)).toISOString().slice(0, 16).replace("T", " ");
}

/** The zones the browser knows (UTC first), or UTC alone where Intl cannot list them. */
export function timeZones(): string[] {
  try {
    return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
  } catch {
    return ["UTC"];
  }
}
