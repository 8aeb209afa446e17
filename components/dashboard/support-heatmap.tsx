// Inbound messages per weekday and hour (docs/reports.md "The dashboard's Reports page"): a table, each cell
// shaded by its share of the busiest hour and saying its count, so it reads without colour.
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatCount } from "@/lib/core/count";
import type { SupportHeatmap } from "@/lib/domains/support/schemas";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

// Light to dark, each with a text colour readable on it in both themes.
const SHADES = [
  "bg-slate-50 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  "bg-indigo-100 text-indigo-950",
  "bg-indigo-300 text-indigo-950",
  "bg-indigo-600 text-white",
  "bg-indigo-800 text-white",
];

const shadeOf = (n: number, max: number) =>
  n === 0 ? SHADES[0] : SHADES[Math.min(4, 1 + Math.floor((n / max) * 3.99))];

export function SupportHeatmapTable({ cells, caption }: { cells: SupportHeatmap["cells"]; caption: string }) {
  const max = Math.max(1, ...cells.map((c) => c.inbound));
  const at = new Map(cells.map((c) => [`${c.weekday}:${c.hour}`, c.inbound]));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <ScrollRegion label="Inbound by weekday and hour">
      <table className="border-separate border-spacing-0.5 text-xs" data-testid="support-heatmap">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="px-1 text-left font-semibold">
              <span className="sr-only">Weekday</span>
            </th>
            {hours.map((h) => (
              <th key={h} scope="col" className="w-7 px-0.5 text-center font-normal">
                {String(h).padStart(2, "0")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((name, i) => (
            <tr key={name}>
              <th scope="row" className="px-1 text-left font-semibold">
                {name}
              </th>
              {hours.map((h) => {
                const n = at.get(`${i + 1}:${h}`) ?? 0;
                return (
                  <td key={h} className={`h-7 w-7 rounded text-center ${shadeOf(n, max)}`}>
                    {n === 0 ? "" : formatCount(n)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
