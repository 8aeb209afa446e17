"use client";
// Cost per day stacked by pricing category, drawn with Recharts (the dashboard's chart
// library, also the Reports page's). Other stacked series reuse it (API requests per hour,
// docs/tokens.md) with their own unit and description.
// Colours follow the series key and the axis is rounded (chart-axis.ts, series-colors.ts).

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "@/lib/core/money";
import type { CostPerDay } from "@/lib/domains/billing/totals";
import { axisTicks, tickLabel } from "./chart-axis";
import { seriesColor } from "./series-colors";

type TickProps = { x?: number | string; y?: number | string; payload?: { value: number } };
type BarShape = { x?: number; y?: number; width?: number; height?: number };

const AXIS = { fill: "currentColor", fontSize: 10 };
const TOOLTIP = {
  contentStyle: { background: "#0f172a", border: "none", color: "#f8fafc" },
  itemStyle: { color: "#f8fafc" },
  labelStyle: { color: "#f8fafc" },
};

export function CostChart({
  data,
  currency,
  unit,
  description,
  empty = "No cost in this view.",
  integer = false,
}: {
  data: CostPerDay[];
  currency: string;
  /** A count's noun in the tooltip ("requests"); default: the amount in the currency (lib/core/money.ts). */
  unit?: string;
  /** The chart's accessible description (default: cost per day). */
  description?: string;
  empty?: string;
  /** Whole-number values (counts): the axis never steps below 1. */
  integer?: boolean;
}) {
  const show = (v: number) => (unit ? `${v} ${unit}` : formatMoney(v, currency));
  const days = [...new Set(data.map((d) => d.day))].sort();
  const categories = [...new Set(data.map((d) => d.category ?? "uncategorised"))].sort();
  if (days.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>;
  const byDay = new Map<string, Record<string, number | string>>(days.map((day) => [day, { day }]));
  for (const d of data) {
    const row = byDay.get(d.day) ?? { day: d.day };
    const key = d.category ?? "uncategorised";
    row[key] = Number(row[key] ?? 0) + d.cost;
  }
  const rows = days.map((day) => byDay.get(day) ?? { day });
  const totals = rows.map((row) => categories.reduce((sum, c) => sum + Number(row[c] ?? 0), 0));
  const axis = axisTicks(Math.max(...totals, 0), { integer });
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure>
      <div
        role="img"
        className="h-56 w-full"
        aria-label={
          description ??
          `Cost per day, ${days[0]} to ${days.at(-1)}, ${formatMoney(total, currency)} in total, stacked by pricing category`
        }
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeOpacity={0.15} vertical={false} />
            <XAxis dataKey="day" tick={AXIS} tickFormatter={(d: string) => d.slice(5)} minTickGap={12} />
            <YAxis
              domain={[0, axis.top]}
              ticks={axis.ticks}
              interval={0}
              width={56}
              tick={({ x, y, payload }: TickProps) => (
                <g data-testid="axis-tick">
                  <text x={Number(x)} y={Number(y) + 4} textAnchor="end" fontSize="10" fill="currentColor">
                    {tickLabel(payload?.value ?? 0, axis)}
                  </text>
                </g>
              )}
            />
            <Tooltip {...TOOLTIP} cursor={{ fillOpacity: 0.1 }} formatter={(v) => show(Number(v))} />
            {categories.map((c) => (
              <Bar
                key={c}
                dataKey={c}
                stackId="stack"
                fill={seriesColor(c)}
                isAnimationActive={false}
                shape={({ x, y, width, height }: BarShape) =>
                  height ? (
                    <rect
                      x={x}
                      y={y}
                      width={Math.max(1, width ?? 0)}
                      height={height}
                      fill={seriesColor(c)}
                      data-series={c}
                    />
                  ) : (
                    <g />
                  )
                }
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
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
