// The endpoints page (docs/integrators/endpoints.md) checked against the route table: its
// rows are written by hand (the "what" column says more than a route's summary), so
// lib/docs/coverage.test.ts holds them to the table: one row per route, the route's
// versions in its row, no row for a route that does not exist, three cells per row (an
// unescaped "|" in the text splits a row and shifts the table).
import { routeEntry } from "./coverage";

export type EndpointRoute = { method: string; path: string; versions: readonly string[] };

export type EndpointProblems = {
  /** Rows naming no route of the table ("GET /gone"). */
  stale: string[];
  /** Rows whose versions cell differs from the route's ("GET /x: v2, v3 (route: v3)"). */
  wrongVersions: string[];
  /** Routes with more than one row. */
  repeated: string[];
  /** Rows with other than three cells. */
  malformed: string[];
};

type Row = { entry: string; versions: string; cells: number };

/** The cells of a Markdown table row, "\|" kept as text. */
const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** Every table row whose first cell is a route ("`GET /path`"). */
export function endpointRows(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split("\n")) {
    if (!line.trimStart().startsWith("|")) continue;
    const cells = cellsOf(line);
    const entry = /^`((?:GET|POST|PUT|PATCH|DELETE) \S+)`$/.exec(cells[0] ?? "")?.[1];
    if (entry) rows.push({ entry, versions: cells[1] ?? "", cells: cells.length });
  }
  return rows;
}

export function endpointProblems(markdown: string, routes: readonly EndpointRoute[]): EndpointProblems {
  const versionsOf = new Map(routes.map((r) => [routeEntry(r), [...r.versions].sort().join(", ")]));
  const rows = endpointRows(markdown);
  const seen = new Set<string>();
  const problems: EndpointProblems = { stale: [], wrongVersions: [], repeated: [], malformed: [] };
  for (const row of rows) {
    if (row.cells !== 3) problems.malformed.push(row.entry);
    if (seen.has(row.entry)) problems.repeated.push(row.entry);
    seen.add(row.entry);
    const expected = versionsOf.get(row.entry);
    if (expected === undefined) problems.stale.push(row.entry);
    else if (row.versions !== expected)
      problems.wrongVersions.push(`${row.entry}: ${row.versions} (route: ${expected})`);
  }
  return problems;
}
