// Business hours as pure functions (docs/automation.md "Business hours"): whether an instant
// is inside the account's opening hours, and how many business seconds lie between two
// instants (the SLA's business-hours targets; the support figures use its SQL twin,
// switchboard_business_seconds, which lib/domains/support/business-report.test.ts holds to it,
// docs/reports.md "Business hours"). Hours are wall-clock
// ranges per weekday in an IANA time zone; a range whose close is not after its open runs
// past midnight into the next day. A holiday closes every range that starts on that date.
// Everything works on intervals in UTC built per local date, so both answers agree and DST
// days have their real length (a 09:00-17:00 range on a transition day is still 8 hours).

export type DayRange = { day: number; open: string; close: string };
export type BusinessHours = { timezone: string; days: DayRange[]; holidays: string[] };

const DAY_MS = 86_400_000;
/** Spans longer than this are cut (a report over five years of waits is a mistake, not a loop). */
const MAX_DAYS = 366 * 5;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** True for an IANA zone name the runtime knows (Europe/Berlin). */
export function isTimeZone(timezone: string): boolean {
  if (timezone.trim() === "" || timezone.length > 64) return false;
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock at `ms` in `timezone`, as if it were UTC (its offset is the difference). */
function wallClockMs(ms: number, timezone: string): number {
  const parts = formatterFor(timezone).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

const offsetAt = (ms: number, timezone: string) =>
  wallClockMs(Math.floor(ms / 1000) * 1000, timezone) - Math.floor(ms / 1000) * 1000;

/**
 * The zone's offsets at local-date midnights, read once per walk: a walk over five years of
 * days asks for each only once (1,830 Intl reads, not one per range and day: 50 ranges made an
 * SLA's due time cost seconds of CPU in the callback's transaction).
 */
type Offsets = Map<number, number>;
function offsetOn(dateMs: number, timezone: string, offsets: Offsets): number {
  let offset = offsets.get(dateMs);
  if (offset === undefined) {
    offset = offsetAt(dateMs, timezone);
    offsets.set(dateMs, offset);
  }
  return offset;
}

/**
 * The UTC instant of a local wall-clock time on the local date `dateMs` or the night after it,
 * by PostgreSQL's rule (its "Date/Time Input" docs; the reports' SQL function
 * switchboard_business_seconds reads times so): a time a DST gap skips takes the offset before
 * the change (02:30 on New York's spring-forward night is 03:30 EDT), and a time the clocks
 * repeat takes the later instant (01:30 on its fall-back night is 01:30 EST). The offsets a day
 * before the date and three days after bracket every instant the time can be (zones are within
 * 14 hours of UTC) and at most one change; when they agree there is none to look at.
 */
function localToUtc(localMs: number, dateMs: number, timezone: string, offsets: Offsets): number {
  const before = offsetOn(dateMs - DAY_MS, timezone, offsets);
  const after = offsetOn(dateMs + 3 * DAY_MS, timezone, offsets);
  if (before === after) return localMs - before;
  const valid = [localMs - before, localMs - after].filter((utc) => wallClockMs(utc, timezone) === localMs);
  return valid.length === 0 ? localMs - before : Math.max(...valid);
}

/** The local calendar date (as a UTC midnight) at `ms`. */
function localDate(ms: number, timezone: string): number {
  const wall = wallClockMs(ms, timezone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** "HH:MM" (00:00 to 24:00) as minutes since midnight. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const isoDate = (dateMs: number) => new Date(dateMs).toISOString().slice(0, 10);

/**
 * One walk over the hours: the ranges parsed once and grouped by weekday (sorted by opening),
 * the holidays as a set and the zone's offsets read once per date.
 */
type Walk = {
  timezone: string;
  byWeekday: { open: number; close: number }[][];
  holidays: ReadonlySet<string>;
  offsets: Offsets;
};
function walkOf(hours: BusinessHours): Walk {
  const byWeekday: Walk["byWeekday"] = [[], [], [], [], [], [], []];
  for (const range of hours.days)
    byWeekday[range.day]?.push({ open: minutesOf(range.open), close: minutesOf(range.close) });
  for (const ranges of byWeekday) ranges.sort((x, y) => x.open - y.open);
  return { timezone: hours.timezone, byWeekday, holidays: new Set(hours.holidays), offsets: new Map() };
}

/** The open intervals [start, end) in UTC of the ranges that start on one local date, by opening. */
function intervalsOn(dateMs: number, walk: Walk): [number, number][] {
  const ranges = walk.byWeekday[new Date(dateMs).getUTCDay()] ?? [];
  if (ranges.length === 0 || walk.holidays.has(isoDate(dateMs))) return [];
  const out: [number, number][] = [];
  for (const { open, close } of ranges) {
    const end = close > open ? dateMs + close * 60_000 : dateMs + DAY_MS + close * 60_000;
    const start = localToUtc(dateMs + open * 60_000, dateMs, walk.timezone, walk.offsets);
    const stop = localToUtc(end, dateMs, walk.timezone, walk.offsets);
    if (stop > start) out.push([start, stop]);
  }
  return out;
}

/** Whether `at` falls inside the business hours. */
export function isInBusinessHours(at: Date, hours: BusinessHours): boolean {
  const ms = at.getTime();
  const today = localDate(ms, hours.timezone);
  const walk = walkOf(hours);
  // Yesterday's ranges may run past midnight into today.
  for (const date of [today - DAY_MS, today]) {
    for (const [start, end] of intervalsOn(date, walk)) if (ms >= start && ms < end) return true;
  }
  return false;
}

/** Business seconds in [from, to): the overlap of the span with the open intervals (0 when to <= from). */
export function businessSecondsBetween(from: Date, to: Date, hours: BusinessHours): number {
  const a = from.getTime();
  const b = to.getTime();
  if (!(b > a)) return 0;
  const walk = walkOf(hours);
  const first = localDate(a, hours.timezone) - DAY_MS;
  const last = Math.min(localDate(b, hours.timezone), first + MAX_DAYS * DAY_MS);
  let total = 0;
  for (let date = first; date <= last; date += DAY_MS) {
    for (const [start, end] of intervalsOn(date, walk)) {
      const overlap = Math.min(end, b) - Math.max(start, a);
      if (overlap > 0) total += overlap;
    }
  }
  return Math.floor(total / 1000);
}

/**
 * The start of the next opening after `at` (within two weeks), or null when there is none:
 * every instant of one closed period shares it, so it names the period (the away reply
 * answers once per period).
 */
export function nextOpening(at: Date, hours: BusinessHours): Date | null {
  const ms = at.getTime();
  const walk = walkOf(hours);
  const today = localDate(ms, hours.timezone);
  let best: number | null = null;
  for (let date = today - DAY_MS; date <= today + 14 * DAY_MS; date += DAY_MS) {
    for (const [start] of intervalsOn(date, walk)) {
      if (start > ms && (best === null || start < best)) best = start;
    }
    if (best !== null && date > today) break;
  }
  return best === null ? null : new Date(best);
}

/**
 * The instant at which `seconds` business seconds have passed since `from` (an SLA's due time
 * in business hours, docs/reports.md "SLA policies"): the inverse of businessSecondsBetween.
 * Null when the hours never open within MAX_DAYS.
 */
export function addBusinessSeconds(from: Date, seconds: number, hours: BusinessHours): Date | null {
  const a = from.getTime();
  let left = seconds * 1000;
  const walk = walkOf(hours);
  const first = localDate(a, hours.timezone) - DAY_MS;
  for (let date = first; date <= first + MAX_DAYS * DAY_MS; date += DAY_MS) {
    for (const [start, end] of intervalsOn(date, walk)) {
      const begin = Math.max(start, a);
      if (end <= begin) continue;
      if (end - begin >= left) return new Date(begin + left);
      left -= end - begin;
    }
  }
  return null;
}
