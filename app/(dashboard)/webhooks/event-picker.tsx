"use client";
import type { CatalogGroup } from "@/lib/domains/webhooks/catalog";

/** Checkboxes grouped by the catalog's groups; each group can be toggled at once. */
export function EventPicker({
  groups,
  selected,
  onChange,
}: {
  groups: CatalogGroup[];
  selected: string[];
  onChange: (next: string[]) => void;
}) {
  const set = new Set(selected);
  function toggle(key: string, on: boolean) {
    const next = new Set(set);
    if (on) next.add(key);
    else next.delete(key);
    onChange([...next]);
  }
  function toggleGroup(g: CatalogGroup, on: boolean) {
    const next = new Set(set);
    for (const e of g.events) {
      if (on) next.add(e.key);
      else next.delete(e.key);
    }
    onChange([...next]);
  }
  return (
    <div className="space-y-3">
      {groups.map((g) => {
        const all = g.events.every((e) => set.has(e.key));
        return (
          <fieldset key={g.key} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold">{g.name}</legend>
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">{g.description}</p>
            <label className="mb-1 flex items-center gap-2 text-sm">
              <input type="checkbox" checked={all} onChange={(e) => toggleGroup(g, e.target.checked)} />
              All {g.name.toLowerCase()}
            </label>
            <div className="grid gap-1 sm:grid-cols-2">
              {g.events.map((e) => (
                <label key={e.key} className="flex items-start gap-2 text-sm" title={e.description}>
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={set.has(e.key)}
                    onChange={(ev) => toggle(e.key, ev.target.checked)}
                  />
                  <span className="font-mono text-xs">{e.key}</span>
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
