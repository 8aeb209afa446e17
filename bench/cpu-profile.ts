// Where a process's CPU went within a time window, from a V8 CPU profile (`node --cpu-prof`):
// busy time, the share of each part of the stack (PGlite, Prisma, pg, Next, the app, garbage
// collection) and the functions with the most self time. Used by bench:idle --profile.
import fs from "node:fs";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

export type ProfileSummary = {
  busyMs: number;
  spanS: number;
  /** Busy ms per part of the stack, largest first. */
  parts: [string, number][];
  /** Self ms per function, largest first. */
  functions: [string, number][];
};

// The first frame from the leaf up whose script matches names the part a sample belongs to.
const PARTS: [string, RegExp][] = [
  ["PGlite (embedded PostgreSQL, WebAssembly)", /@electric-sql\/pglite/],
  ["Prisma client and its query compiler", /@prisma|prisma\/runtime|query_compiler/],
  ["pg driver", /node_modules\/pg(-pool|-protocol)?\//],
  ["Next.js", /node_modules\/next\//],
  ["the app's code", /\.build\/server\/|\/lib\/|\/scripts\//],
];

const frameName = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}`;

/** The summary of `file`'s samples taken between `fromUs` and `toUs` (the profile's monotonic clock, µs). */
export function summarizeProfile(file: string, fromUs: number, toUs: number): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let at = p.startTime;
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = nodes.get(p.samples[i] ?? -1);
    if (!leaf || at < fromUs || at > toUs || leaf.callFrame.functionName === "(idle)") continue;
    busy += dt;
    functions.set(frameName(leaf), (functions.get(frameName(leaf)) ?? 0) + dt);
    let part = ["(garbage collector)", "(program)"].includes(leaf.callFrame.functionName)
      ? leaf.callFrame.functionName
      : undefined;
    for (let id: number | undefined = leaf.id; !part && id !== undefined; id = parent.get(id)) {
      const url = nodes.get(id)?.callFrame.url ?? "";
      part = PARTS.find(([, re]) => re.test(url))?.[0];
    }
    part ??= "Node.js itself (timers, streams, sockets)";
    parts.set(part, (parts.get(part) ?? 0) + dt);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    busyMs: busy,
    spanS: (Math.min(toUs, p.endTime) - Math.max(fromUs, p.startTime)) / 1e6,
    parts: sorted(parts),
    functions: sorted(functions),
  };
}
