// The import boundary check (docs/architecture.md "The check"): dependency-cruiser with the
// rules of .dependency-cruiser.cjs over every source folder, then one rule dependency-cruiser
// cannot say: no import cycle between the folders of lib/domains (`no-domain-cycle`: two
// domains never import each other, directly or round a loop; tests left out, as for the layer
// rules). Exits non-zero on any violation. `npm run lint:imports`; part of `npm run lint` and of
// the lint step of `npm test`. An optional argument checks another tree with the same rules
// (the planted-violation test, test/import-boundaries.test.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");
const root = path.resolve(process.argv[2] ?? repo);
const sources = ["lib", "app", "components", "scripts", "test", "e2e", "bench", "proxy.ts"].filter((p) =>
  fs.existsSync(path.join(root, p)),
);
const bin = (name) => path.join(repo, "node_modules/dependency-cruiser/bin", name);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "check-imports-"));
let result;
try {
  // One cruise: the rules' violations and the folder graph come from its JSON.
  const json = path.join(scratch, "cruise.json");
  const cruise = [bin("dependency-cruise.mjs"), ...sources, "--config", path.join(repo, ".dependency-cruiser.cjs")];
  const cruised = spawnSync(process.execPath, [...cruise, "--output-type", "json", "--output-to", json], {
    cwd: root,
    stdio: "inherit",
  });
  if (cruised.status !== 0 || !fs.existsSync(json)) process.exit(cruised.status ?? 1);
  result = JSON.parse(fs.readFileSync(json, "utf8"));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
const cycles = domainCycles(result.modules);
const { summary } = result;
const lines = summary.violations.map((v) => {
  const path = v.cycle ? [v.from, ...v.cycle.map((step) => step.name ?? step)] : [v.from, v.to];
  return `  ${v.rule.severity} ${v.rule.name}: ${path.join(" → ")}`;
});
for (const c of cycles) lines.push(`  error no-domain-cycle: ${c.folders.join(" → ")}\n    ${c.edges.join("\n    ")}`);
const errors = summary.error + cycles.length;
const cruisedCount = `${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies cruised`;
if (lines.length === 0) process.stdout.write(`\n✔ no dependency violations found (${cruisedCount})\n\n`);
else {
  const count = `${lines.length} dependency violations (${errors} errors, ${summary.warn} warnings)`;
  process.stdout.write(`\n${lines.join("\n")}\n\nx ${count}. ${cruisedCount}.\n\n`);
}
process.exit(errors > 0 ? 1 : 0);

/** The folder of lib/domains a file belongs to, or null. */
function domainOf(file) {
  const m = /^lib\/domains\/([^/]+)\//.exec(file);
  return m ? `lib/domains/${m[1]}` : null;
}

/**
 * Each strongly connected set of domain folders (more than one folder) as one cycle through
 * it: the folders in order (from the alphabetically first, always taking the first next
 * folder that leads back) and, per hop, one import that makes it.
 */
function domainCycles(modules) {
  const edges = new Map(); // folder -> Map(folder -> "a.ts → b.ts")
  for (const m of modules) {
    if (/\.test\.tsx?$/.test(m.source)) continue;
    const from = domainOf(m.source);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    for (const d of m.dependencies) {
      const to = domainOf(d.resolved);
      if (!to || to === from) continue;
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} → ${d.resolved}`);
    }
  }
  const next = (f) => [...(edges.get(f)?.keys() ?? [])].sort();
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) components.push(new Set(c));
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((c) => {
    const start = [...c].sort()[0];
    // A shortest way back to `start` inside the component (breadth first, neighbours in order).
    const prev = new Map([[start, null]]);
    const queue = [start];
    let last = null;
    while (queue.length > 0 && last === null) {
      const v = queue.shift();
      for (const w of next(v).filter((f) => c.has(f))) {
        if (w === start) {
          last = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const folders = [start];
    for (let v = last; v !== start; v = prev.get(v)) folders.splice(1, 0, v);
    folders.push(start);
    const hops = folders.slice(1).map((to, i) => edges.get(folders[i]).get(to));
    return { folders, edges: hops };
  });
}
