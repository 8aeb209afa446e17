// The dashboard's list markup: summary tiles, and a table (or its empty state) whose rows
// the page renders.
import type { ReactNode } from "react";
import { card, table, th } from "@/components/ui/classes";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** Figures over the listed set, each with a test id. */
export function StatTiles({
  label,
  title,
  tiles,
}: {
  label: string;
  title?: string;
  tiles: { label: string; value: string; id: string }[];
}) {
  return (
    <section aria-label={label} className="grid gap-3 sm:grid-cols-3" title={title}>
      {tiles.map((t) => (
        <div key={t.id} className={card}>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t.label}</p>
          <p className="text-2xl font-semibold" data-testid={t.id}>
            {t.value}
          </p>
        </div>
      ))}
    </section>
  );
}

export type TableColumn = {
  key: string;
  label: ReactNode;
  ariaSort?: "ascending" | "descending";
  /** Classes of the head cell, e.g. "hidden sm:table-cell" for a column a phone leaves out (its cells too). */
  className?: string;
};

/** A column whose head only screen readers read (a column of row buttons). */
export const actionsColumn = (label = "Actions"): TableColumn => ({
  key: "actions",
  label: <span className="sr-only">{label}</span>,
});

/**
 * Every dashboard table (docs/dashboard.md "Tables"): `rows` (the page's <tr> elements)
 * under these column heads; `empty` when there are none. `label` names its scroll region
 * (it scrolls sideways on a narrow screen); `caption`, read by screen readers only, names
 * the table itself; `className` styles the region (`${card} p-0` for a table in a card).
 */
export function DataTable({
  label,
  columns,
  rowCount,
  empty,
  caption,
  className,
  testId,
  children,
}: {
  label: string;
  columns: TableColumn[];
  rowCount: number;
  empty: ReactNode;
  caption?: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  if (rowCount === 0) return empty;
  return (
    <ScrollRegion label={label} className={className}>
      <table className={table} data-testid={testId}>
        {caption === undefined ? null : <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={c.className ? `${th} ${c.className}` : th} aria-sort={c.ariaSort}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </ScrollRegion>
  );
}
