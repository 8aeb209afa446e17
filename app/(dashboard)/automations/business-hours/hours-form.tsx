"use client";
// The account's business hours (several ranges a day, holidays) and the away reply switch,
// checked with the API's schema (lib/domains/business-hours/schemas.ts) before it is sent.
import { useMemo, useState } from "react";
import { useBodyForm } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { BusinessHoursBody, type BusinessHoursPublic } from "@/lib/domains/business-hours/schemas";
import { setBusinessHoursAction } from "../actions";

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
type Range = { key: number; day: number; open: string; close: string };
let seq = 0;
const nextKey = () => {
  seq += 1;
  return seq;
};

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
}

export function HoursForm({ setting }: { setting: BusinessHoursPublic }) {
  const zones = useMemo(timeZones, []);
  const hours = setting.businessHours;
  const [on, setOn] = useState(hours !== null);
  const [timezone, setTimezone] = useState(hours?.timezone ?? "UTC");
  const [ranges, setRanges] = useState<Range[]>(
    (hours?.days ?? [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" }))).map((d) => ({
      key: nextKey(),
      ...d,
    })),
  );
  const [holidays, setHolidays] = useState((hours?.holidays ?? []).join(", "));
  const [away, setAway] = useState(setting.awayReply.enabled);
  const [awayText, setAwayText] = useState(setting.awayReply.text ?? "");
  const { submit, pending, message } = useBodyForm({
    schema: BusinessHoursBody,
    action: setBusinessHoursAction,
    success: "Business hours saved",
  });
  const setRange = (key: number, patch: Partial<Range>) =>
    setRanges((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    const body = {
      businessHours: on
        ? {
            timezone,
            days: ranges.map(({ day, open, close }) => ({ day, open, close })),
            holidays: holidays
              .split(",")
              .map((h) => h.trim())
              .filter(Boolean),
          }
        : null,
      awayReply: { enabled: away, ...(awayText.trim() ? { text: awayText.trim() } : {}) },
    };
    await submit(body);
  }

  return (
    <form className="space-y-5" onSubmit={save} noValidate>
      <FormAlert message={message} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} />
        The account has business hours (otherwise it is always open)
      </label>
      {on ? (
        <>
          <div>
            <label className={label} htmlFor="bh-zone">
              Time zone
            </label>
            <select id="bh-zone" className={input} value={timezone} onChange={(e) => setTimezone(e.target.value)}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="space-y-2">
            <legend className={label}>Opening ranges (several a day allowed)</legend>
            {ranges.map((r, i) => (
              <div key={r.key} className="flex flex-wrap items-center gap-2">
                <select
                  aria-label={`Range ${i + 1} day`}
                  className={input}
                  value={r.day}
                  onChange={(e) => setRange(r.key, { day: Number(e.target.value) })}
                >
                  {DAY_NAMES.map((d, n) => (
                    <option key={d} value={n}>
                      {d}
                    </option>
                  ))}
                </select>
                <input
                  aria-label={`Range ${i + 1} opens`}
                  className={`${input} w-24`}
                  value={r.open}
                  onChange={(e) => setRange(r.key, { open: e.target.value })}
                />
                <input
                  aria-label={`Range ${i + 1} closes`}
                  className={`${input} w-24`}
                  value={r.close}
                  onChange={(e) => setRange(r.key, { close: e.target.value })}
                />
                <button
                  type="button"
                  className={buttonSecondary}
                  onClick={() => setRanges((rs) => rs.filter((x) => x.key !== r.key))}
                >
                  Remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setRanges((rs) => [...rs, { key: nextKey(), day: 1, open: "09:00", close: "17:00" }])}
            >
              Add a range
            </button>
          </fieldset>
          <div>
            <label className={label} htmlFor="bh-holidays">
              Holidays (dates, comma-separated: 2026-12-25, 2027-01-01)
            </label>
            <input id="bh-holidays" className={input} value={holidays} onChange={(e) => setHolidays(e.target.value)} />
          </div>
        </>
      ) : null}
      <fieldset className="space-y-2">
        <legend className={label}>Away reply</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={away} onChange={(e) => setAway(e.target.checked)} />
          Answer messages outside business hours (once per closed period of a conversation)
        </label>
        <label className={label} htmlFor="bh-away">
          Away text
        </label>
        <textarea
          id="bh-away"
          className={input}
          rows={3}
          value={awayText}
          onChange={(e) => setAwayText(e.target.value)}
        />
      </fieldset>
      <button type="submit" className={button} disabled={pending}>
        Save
      </button>
    </form>
  );
}
