// The business hours schema refuses overlapping ranges (each minute would count twice in the
// figures and SLA due times), naming the later range; touching ranges are fine.
import { describe, expect, it } from "vitest";
import { BusinessHoursSchema } from "./schemas";

const parse = (days: { day: number; open: string; close: string }[]) =>
  BusinessHoursSchema.safeParse({ timezone: "Europe/Berlin", days, holidays: [] });

describe("BusinessHoursSchema ranges", () => {
  it("refuses a range that overlaps another, naming the later one", () => {
    for (const days of [
      // The same range twice.
      [
        { day: 1, open: "09:00", close: "17:00" },
        { day: 1, open: "09:00", close: "17:00" },
      ],
      // Overlapping on one day.
      [
        { day: 1, open: "09:00", close: "17:00" },
        { day: 1, open: "12:00", close: "18:00" },
      ],
      // A night range running into the next morning's.
      [
        { day: 0, open: "22:00", close: "06:00" },
        { day: 1, open: "05:00", close: "09:00" },
      ],
      // Saturday night into Sunday, across the week's end.
      [
        { day: 6, open: "22:00", close: "02:00" },
        { day: 0, open: "01:00", close: "03:00" },
      ],
      // All day and any other range that day.
      [
        { day: 3, open: "00:00", close: "24:00" },
        { day: 3, open: "10:00", close: "11:00" },
      ],
    ]) {
      const parsed = parse(days);
      expect(parsed.success, JSON.stringify(days)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["days.1"]);
      expect(parsed.error?.issues[0]?.message).toMatch(/^overlaps the range \w+day \d\d:\d\d-\d\d:\d\d/);
    }
  });

  it("accepts ranges that only touch, and a night range that ends where the morning's opens", () => {
    expect(
      parse([
        { day: 1, open: "09:00", close: "12:00" },
        { day: 1, open: "12:00", close: "17:00" },
        { day: 1, open: "22:00", close: "06:00" },
        { day: 2, open: "06:00", close: "10:00" },
        { day: 6, open: "20:00", close: "24:00" },
        { day: 0, open: "00:00", close: "08:00" },
      ]).success,
    ).toBe(true);
  });
});
