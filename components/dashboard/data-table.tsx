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

export type TableColumn = { key: string; label: ReactNode; ariaSort?: "ascending" | "descending" };

/**
 * A table of `rows` (the page's <tr> elements) under these column heads; `empty` when there
 * are none. `label` names its scroll region (it scrolls sideways on a narrow screen).
 */
export function DataTable({
  label,
  columns,
  rowCount,
  empty,
  testId,
  children,
}: {
  label: string;
  columns: TableColumn[];
  rowCount: number;
  empty: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  if (rowCount === 0) return empty;
  return (
    <ScrollRegion label={label}>
      <table className={table} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={th} aria-sort={c.ariaSort}>
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
