// A label as the inbox and the labels page show it: its name on its colour, readable in both
// themes (each pair keeps the text at AA contrast on its background).
import type { LabelColor } from "@/lib/domains/labels/schemas";

const COLORS: Record<LabelColor, string> = {
  gray: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  red: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  orange: "bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-100",
  yellow: "bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-100",
  green: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100",
  teal: "bg-teal-100 text-teal-900 dark:bg-teal-950 dark:text-teal-100",
  blue: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-100",
  indigo: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100",
  purple: "bg-purple-100 text-purple-900 dark:bg-purple-950 dark:text-purple-100",
  pink: "bg-pink-100 text-pink-900 dark:bg-pink-950 dark:text-pink-100",
};

/** The account's labels by name (folded), for the colour of a name an API object carries. */
export type LabelColors = Record<string, LabelColor>;

export const colorsOf = (labels: readonly { name: string; color: LabelColor }[]): LabelColors =>
  Object.fromEntries(labels.map((l) => [l.name.toLowerCase(), l.color]));

export function LabelChip({ name, color, children }: { name: string; color?: LabelColor; children?: React.ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 text-xs font-medium ${COLORS[color ?? "gray"]}`}
      data-testid="label-chip"
    >
      {name}
      {children}
    </span>
  );
}
