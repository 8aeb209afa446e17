// Cost per day stacked by pricing category, drawn as plain SVG on the server (no chart JS).
// Other stacked series reuse it (API requests per hour, docs/tokens.md) with their own
// value format and description.
// Colours follow the series key and the axis is rounded (chart-axis.ts, series-colors.ts).

import { formatMoney } from "@/lib/core/money";
import type { CostPerDay } from "@/lib/domains/billing/totals";
import { axisTicks, tickLabel } from "./chart-axis";
import { seriesColor } from "./series-colors";

export function CostChart({
  data,
  currency,
  format,
  description,
  empty = "No cost in this view.",
  integer = false,
}: {
  data: CostPerDay[];
  currency: string;
  /** How a value reads in a bar's tooltip (default: the amount in the currency, lib/core/money.ts). */
  format?: (value: number) => string;
  /** The chart's accessible description (default: cost per day). */
  description?: string;
  empty?: string;
  /** Whole-number values (counts): the axis never steps below 1. */
  integer?: boolean;
}) {
  const show = format ?? ((v: number) => formatMoney(v, currency));
  const days = [...new Set(data.map((d) => d.day))].sort();
  const categories = [...new Set(data.map((d) => d.category ?? "uncategorised"))].sort();
  if (days.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>;
  const byDay = new Map<string, Map<string, number>>();
  for (const d of data) {
    const m = byDay.get(d.day) ?? new Map<string, number>();
    m.set(d.category ?? "uncategorised", (m.get(d.category ?? "uncategorised") ?? 0) + d.cost);
    byDay.set(d.day, m);
  }
  const totals = days.map((day) => [...(byDay.get(day)?.values() ?? [])].reduce((a, b) => a + b, 0));
  const axis = axisTicks(Math.max(...totals, 0), { integer });
  const W = 720;
  const H = 220;
  const pad = { l: 56, r: 8, t: 8, b: 28 };
  const bw = (W - pad.l - pad.r) / days.length;
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - v / axis.top);
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-label={
          description ??
          `Cost per day, ${days[0]} to ${days.at(-1)}, ${formatMoney(total, currency)} in total, stacked by pricing category`
        }
      >
        {axis.ticks.map((t) => (
          <g key={t} data-testid="axis-tick">
            <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity="0.15" />
            <text x={pad.l - 4} y={y(t) + 4} textAnchor="end" fontSize="10" fill="currentColor">
              {tickLabel(t, axis)}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          let acc = 0;
          const x = pad.l + i * bw + bw * 0.1;
          return (
            <g key={day}>
              {categories.map((c) => {
                const v = byDay.get(day)?.get(c) ?? 0;
                if (v <= 0) return null;
                const top = y(acc + v);
                const h = y(acc) - top;
                acc += v;
                return (
                  <rect
                    key={c}
                    x={x}
                    y={top}
                    width={Math.max(1, bw * 0.8)}
                    height={h}
                    fill={seriesColor(c)}
                    data-series={c}
                  >
                    <title>{`${day} · ${c}: ${show(v)}`}</title>
                  </rect>
                );
              })}
              {(days.length <= 16 || i % Math.ceil(days.length / 8) === 0) && (
                <text x={x + bw * 0.4} y={H - 10} textAnchor="middle" fontSize="10" fill="currentColor">
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-3 text-xs">
        {categories.map((c) => (
          <span key={c} className="inline-flex items-center gap-1" data-testid="chart-legend-item" data-series={c}>
            <span
              aria-hidden="true"
              className="inline-block h-3 w-3 rounded-sm"
              style={{ background: seriesColor(c) }}
            />
            {c}
          </span>
        ))}
        {axis.allZero && <span data-testid="chart-all-zero">Every value in this view is 0.</span>}
      </figcaption>
    </figure>
  );
}
