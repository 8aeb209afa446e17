import { describe, expect, it, vi } from "vitest";
import {
  addBusinessSeconds,
  type BusinessHours,
  businessSecondsBetween,
  isInBusinessHours,
  isTimeZone,
  nextOpening,
} from "./hours";

const weekdays = (open: string, close: string) => [1, 2, 3, 4, 5].map((day) => ({ day, open, close }));
const BERLIN: BusinessHours = {
  timezone: "Europe/Berlin",
  // Two ranges a day: a lunch break between them.
  days: [...weekdays("09:00", "12:00"), ...weekdays("13:00", "17:00")],
  holidays: ["2026-12-25"],
};
const at = (iso: string) => new Date(iso);

describe("isInBusinessHours", () => {
  it("reads the wall clock of the account's time zone, with several ranges a day", () => {
    // 2026-11-30 is a Monday; Berlin is UTC+1 in winter.
    expect(isInBusinessHours(at("2026-11-30T08:00:00Z"), BERLIN)).toBe(true); // 09:00 local
    expect(isInBusinessHours(at("2026-11-30T07:59:59Z"), BERLIN)).toBe(false); // 08:59:59
    expect(isInBusinessHours(at("2026-11-30T11:30:00Z"), BERLIN)).toBe(false); // lunch, 12:30
    expect(isInBusinessHours(at("2026-11-30T12:00:00Z"), BERLIN)).toBe(true); // 13:00
    expect(isInBusinessHours(at("2026-11-30T16:00:00Z"), BERLIN)).toBe(false); // 17:00: close is exclusive
    expect(isInBusinessHours(at("2026-11-29T10:00:00Z"), BERLIN)).toBe(false); // Sunday
  });

  it("a holiday is closed all day", () => {
    // 2026-12-25 is a Friday.
    expect(isInBusinessHours(at("2026-12-25T10:00:00Z"), BERLIN)).toBe(false);
    expect(isInBusinessHours(at("2026-12-24T10:00:00Z"), BERLIN)).toBe(true);
  });

  it("a range past midnight covers the early hours of the next day", () => {
    const night: BusinessHours = { timezone: "UTC", days: [{ day: 5, open: "22:00", close: "02:00" }], holidays: [] };
    expect(isInBusinessHours(at("2026-12-04T23:00:00Z"), night)).toBe(true); // Friday 23:00
    expect(isInBusinessHours(at("2026-12-05T01:59:00Z"), night)).toBe(true); // Saturday 01:59
    expect(isInBusinessHours(at("2026-12-05T02:00:00Z"), night)).toBe(false);
  });

  it("follows daylight saving time (summer: UTC+2)", () => {
    expect(isInBusinessHours(at("2026-07-06T07:00:00Z"), BERLIN)).toBe(true); // Monday 09:00 CEST
    expect(isInBusinessHours(at("2026-07-06T06:59:00Z"), BERLIN)).toBe(false);
  });
});

describe("businessSecondsBetween", () => {
  it("counts only the open time between two instants", () => {
    // Monday 08:00 local to Tuesday 10:00 local: Monday 3 h + 4 h, Tuesday 1 h.
    expect(businessSecondsBetween(at("2026-11-30T07:00:00Z"), at("2026-12-01T09:00:00Z"), BERLIN)).toBe(8 * 3600);
    // Friday 16:00 to Monday 09:30 local: Friday 1 h, Monday 30 min.
    expect(businessSecondsBetween(at("2026-12-04T15:00:00Z"), at("2026-12-07T08:30:00Z"), BERLIN)).toBe(5400);
    // Inside the lunch break: nothing.
    expect(businessSecondsBetween(at("2026-11-30T11:10:00Z"), at("2026-11-30T11:50:00Z"), BERLIN)).toBe(0);
    expect(businessSecondsBetween(at("2026-12-01T09:00:00Z"), at("2026-11-30T09:00:00Z"), BERLIN)).toBe(0);
  });

  it("skips holidays and weekends, and a whole week is 35 hours", () => {
    expect(businessSecondsBetween(at("2026-12-25T00:00:00Z"), at("2026-12-26T00:00:00Z"), BERLIN)).toBe(0);
    expect(businessSecondsBetween(at("2026-11-30T00:00:00Z"), at("2026-12-07T00:00:00Z"), BERLIN)).toBe(35 * 3600);
  });

  it("the day the clocks go forward has 23 hours, and the Monday after opens 7 hours", () => {
    const sunday: BusinessHours = {
      timezone: "Europe/Berlin",
      days: [{ day: 0, open: "00:00", close: "24:00" }],
      holidays: [],
    };
    // 2026-03-29: clocks go forward, the day has 23 hours.
    expect(businessSecondsBetween(at("2026-03-28T00:00:00Z"), at("2026-03-30T00:00:00Z"), sunday)).toBe(23 * 3600);
    expect(businessSecondsBetween(at("2026-03-30T07:00:00Z"), at("2026-03-30T16:00:00Z"), BERLIN)).toBe(7 * 3600);
  });
});

describe("daylight saving time changes west of UTC (New York)", () => {
  // Sunday ranges that open or close inside the hour the clocks skip (2026-03-08) or repeat
  // (2026-11-01): a skipped 02:30 is 03:30 EDT, a repeated 01:30 the later one (EST), as
  // PostgreSQL reads such times.
  const ny = (open: string, close: string): BusinessHours => ({
    timezone: "America/New_York",
    days: [{ day: 0, open, close }],
    holidays: [],
  });
  it("a range closing at a skipped 02:30 closes at 03:30 EDT (07:30Z)", () => {
    const h = ny("01:00", "02:30");
    // 01:00 EST is 06:00Z; 02:30 does not exist and reads as 03:30 EDT, 07:30Z.
    expect(businessSecondsBetween(new Date("2026-03-08T05:00:00Z"), new Date("2026-03-08T09:00:00Z"), h)).toBe(5400);
  });
  it("a range opening at a repeated 01:30 opens at the later one, 01:30 EST (06:30Z)", () => {
    const h = ny("01:30", "09:00");
    // 06:30Z to 09:00 EST (14:00Z): 7.5 hours.
    expect(businessSecondsBetween(new Date("2026-11-01T04:00:00Z"), new Date("2026-11-01T15:00:00Z"), h)).toBe(27_000);
  });
});

describe("nextOpening", () => {
  it("names the closed period: the same opening for every instant of it", () => {
    const friday = nextOpening(at("2026-12-04T17:00:00Z"), BERLIN);
    const sunday = nextOpening(at("2026-12-06T12:00:00Z"), BERLIN);
    expect(friday?.toISOString()).toBe("2026-12-07T08:00:00.000Z");
    expect(sunday?.getTime()).toBe(friday?.getTime());
    expect(nextOpening(at("2026-12-07T11:30:00Z"), BERLIN)?.toISOString()).toBe("2026-12-07T12:00:00.000Z");
    expect(nextOpening(at("2026-12-07T11:30:00Z"), { timezone: "UTC", days: [], holidays: [] })).toBeNull();
  });

  it("knows zone names", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("addBusinessSeconds", () => {
  const week = {
    timezone: "Europe/Berlin",
    days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
    holidays: ["2026-12-25"],
  };
  it("counts only open time, across nights, weekends and holidays, and inverts businessSecondsBetween", () => {
    // Thursday 2026-12-24 16:30 Berlin (15:30 UTC): 30 minutes left that day; Friday is a holiday.
    const from = new Date("2026-12-24T15:30:00Z");
    expect(addBusinessSeconds(from, 15 * 60, week)?.toISOString()).toBe("2026-12-24T15:45:00.000Z");
    // 60 minutes: 30 on Thursday, then Monday 09:00 Berlin + 30 minutes.
    const due = addBusinessSeconds(from, 60 * 60, week);
    expect(due?.toISOString()).toBe("2026-12-28T08:30:00.000Z");
    expect(businessSecondsBetween(from, due as Date, week)).toBe(3600);
    // From a closed moment: the clock starts at the next opening.
    expect(addBusinessSeconds(new Date("2026-12-26T12:00:00Z"), 60, week)?.toISOString()).toBe(
      "2026-12-28T08:01:00.000Z",
    );
  });
  it("reads the zone's clock once per day walked, however many ranges (50 ranges, five years: milliseconds)", () => {
    // Fifty one-minute ranges on Mondays: 50 business minutes a week, so a year of business
    // minutes is never reached and the walk goes the whole five years.
    const sparse: BusinessHours = {
      timezone: "America/New_York",
      days: Array.from({ length: 50 }, (_, i) => ({
        day: 1,
        open: `${String(Math.floor((i * 2) / 60)).padStart(2, "0")}:${String((i * 2) % 60).padStart(2, "0")}`,
        close: `${String(Math.floor((i * 2 + 1) / 60)).padStart(2, "0")}:${String((i * 2 + 1) % 60).padStart(2, "0")}`,
      })),
      holidays: [],
    };
    const reads = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      expect(addBusinessSeconds(new Date("2026-03-01T00:00:00Z"), 525_600 * 60, sparse)).toBeNull();
      // One read per day walked, and a check per range on the days around a DST change (2,525
      // here), not several per range and day (about 400,000 before).
      expect(reads.mock.calls.length).toBeLessThan(5_000);
    } finally {
      reads.mockRestore();
    }
  });
  it("never open: null", () => {
    expect(addBusinessSeconds(new Date(), 60, { timezone: "UTC", days: [], holidays: [] })).toBeNull();
  });
});
