// The value axis of the dashboard's bar charts: round ticks from zero (1, 2 or 5 times a
// power of ten) with just enough decimals that no two labels read the same. All-zero
// data gets one tick, 0, instead of three labels that all say 0.00.
// See docs/dashboard.md.

export type Axis = {
  /** Tick values from 0 up, the last one the top of the axis. */
  ticks: number[];
  /** The value the top of the plot stands for (1 when all data is zero, so bars stay flat). */
  top: number;
  /** Decimals a tick label needs. */
  decimals: number;
  allZero: boolean;
};

function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = Number((raw / magnitude).toPrecision(12)); // 2.0000000000000004 is 2
  const factor = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10;
  return factor * magnitude;
}

/** Ticks for values from 0 to `max`; `integer` for counts (never a step below 1). */
export function axisTicks(max: number, options: { intervals?: number; integer?: boolean } = {}): Axis {
  const intervals = options.intervals ?? 2;
  if (!Number.isFinite(max) || max <= 0) return { ticks: [0], top: 1, decimals: 0, allZero: true };
  let step = niceStep(max / intervals);
  if (options.integer) step = Math.max(1, Math.round(step));
  const count = Math.ceil(max / step - 1e-9);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  // Rounded to the label precision, so 0.1 + 0.2 never shows up as 0.30000000000000004.
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
  return { ticks, top: ticks.at(-1) ?? step, decimals, allZero: false };
}

export const tickLabel = (value: number, axis: Axis) => value.toFixed(axis.decimals);
