"use client";
// The Reports page's charts (docs/reports.md "The dashboard's Reports page"), drawn with Recharts: conversations
// and closes per day, and the first response and resolution medians per day in minutes. The
// same figures are in the "By day" table beside them (and its CSV) for anyone not reading
// the chart.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export type DayPoint = {
  day: string;
  conversations: number;
  resolved: number;
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
};

const AXIS = { fill: "currentColor", fontSize: 11 };
const TOOLTIP = {
  contentStyle: { background: "#0f172a", border: "none", color: "#f8fafc" },
  itemStyle: { color: "#f8fafc" },
};

export function SupportVolumeChart({ data, label }: { data: DayPoint[]; label: string }) {
  return (
    <figure aria-label={label} className="h-60 w-full min-w-0" data-testid="chart-volume">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="day" tick={AXIS} tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Tooltip {...TOOLTIP} cursor={{ fillOpacity: 0.1 }} />
          <Legend />
          <Bar dataKey="conversations" name="Conversations" fill="#4338ca" />
          <Bar dataKey="resolved" name="Resolved" fill="#0f766e" />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function SupportTimesChart({ data, label }: { data: DayPoint[]; label: string }) {
  return (
    <figure aria-label={label} className="h-60 w-full min-w-0" data-testid="chart-times">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="day" tick={AXIS} tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
          <YAxis tick={AXIS} />
          <Tooltip {...TOOLTIP} />
          <Legend />
          <Line
            type="monotone"
            dataKey="firstResponseMinutes"
            name="First response, median (min)"
            stroke="#b45309"
            connectNulls
            dot={false}
          />
          <Line
            type="monotone"
            dataKey="resolutionMinutes"
            name="Resolution, median (min)"
            stroke="#0369a1"
            connectNulls
            dot={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
