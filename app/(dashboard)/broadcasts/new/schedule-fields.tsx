"use client";
// When and how fast: now, or a date and time on a chosen time zone's clock (stored as the UTC
// instant, scheduledAt), and an optional pace below the sender's throughput (maxPerSecond).
import { useEffect, useState } from "react";
import { input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { MAX_PER_SECOND } from "@/lib/domains/broadcasts/schemas";
import type { ScheduleDraft } from "./draft";
import { timeZones } from "./zoned-time";

type Props = {
  schedule: ScheduleDraft;
  onSchedule: (s: ScheduleDraft) => void;
  pace: string;
  onPace: (pace: string) => void;
  errors: Record<string, string>;
};

export function ScheduleFields({ schedule, onSchedule, pace, onPace, errors }: Props) {
  // The zone list and the browser's own zone come after hydration: the server's ICU lists zones
  // differently and does not know the browser's zone.
  const [zones, setZones] = useState<string[]>([schedule.zone]);
  useEffect(() => setZones(timeZones()), []);
  const set = (p: Partial<ScheduleDraft>) => onSchedule({ ...schedule, ...p });
  const whenError = errors.scheduledAt;
  const paceError = errors.maxPerSecond;
  return (
    <div className="space-y-4">
      <fieldset>
        <legend className={label}>Start</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {(["now", "later"] as const).map((w) => (
            <label key={w} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="bc-when"
                value={w}
                checked={schedule.when === w}
                onChange={() => set({ when: w })}
              />
              {w === "now" ? "Now" : "At a date and time"}
            </label>
          ))}
        </div>
      </fieldset>
      {schedule.when === "later" ? (
        <div className="grid gap-2 sm:grid-cols-3">
          <div>
            <label htmlFor="bc-date" className={label}>
              Date
            </label>
            <input
              id="bc-date"
              type="date"
              className={input}
              value={schedule.date}
              onChange={(e) => set({ date: e.target.value })}
              {...errorProps("bc-date", whenError)}
            />
            <FieldMessage inputId="bc-date" message={whenError} />
          </div>
          <div>
            <label htmlFor="bc-time" className={label}>
              Time
            </label>
            <input
              id="bc-time"
              type="time"
              className={input}
              value={schedule.time}
              onChange={(e) => set({ time: e.target.value })}
            />
          </div>
          <div>
            <label htmlFor="bc-zone" className={label}>
              Time zone
            </label>
            <select
              id="bc-zone"
              className={input}
              value={schedule.zone}
              onChange={(e) => set({ zone: e.target.value })}
            >
              {(zones.includes(schedule.zone) ? zones : [schedule.zone, ...zones]).map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </div>
        </div>
      ) : null}
      <div className="max-w-xs">
        <label htmlFor="bc-pace" className={label}>
          Pace (messages per second, optional)
        </label>
        <input
          id="bc-pace"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_PER_SECOND}
          step={1}
          className={input}
          value={pace}
          onChange={(e) => onPace(e.target.value)}
          {...errorProps("bc-pace", paceError)}
          aria-describedby={paceError ? "bc-pace-error" : "bc-pace-hint"}
        />
        <FieldMessage inputId="bc-pace" message={paceError} />
        {paceError ? null : (
          <p id="bc-pace-hint" className={`${muted} mt-1`}>
            Empty: as fast as the sender&apos;s throughput allows.
          </p>
        )}
      </div>
    </div>
  );
}
