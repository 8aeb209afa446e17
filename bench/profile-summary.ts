// Where a process's CPU went over its whole profile (docs/benchmarks.md "Where the CPU goes"):
// `npx tsx bench/profile-summary.ts .bench-profiles/CPU.*.cpuprofile [--top=N] [--last=S]` prints, per file,
// the busy time, each part of the stack's share (PGlite, Prisma, pg, Next, the app, GC) and the
// functions with the most self time (--last=S: only the profile's last S seconds, such as a bench's
// last scenario). The profiles come from a bench run with BENCH_PROFILE=1.
import fs from "node:fs";
import path from "node:path";
import { summarizeProfile } from "./cpu-profile";

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith("--top="))?.slice(6) ?? 15);
const last = Number(args.find((a) => a.startsWith("--last="))?.slice(7) ?? 0);
const files = args.filter((a) => !a.startsWith("--"));
if (files.length === 0) {
  console.error("usage: npx tsx bench/profile-summary.ts <file.cpuprofile>... [--top=N]");
  process.exit(2);
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
for (const file of files) {
  const { endTime } = JSON.parse(fs.readFileSync(file, "utf8")) as { endTime: number };
  const s = summarizeProfile(file, last > 0 ? endTime - last * 1e6 : 0, Number.MAX_SAFE_INTEGER);
  console.log(`\n${path.basename(file)}: ${(s.busyMs / 1000).toFixed(1)} s busy over ${s.spanS.toFixed(1)} s`);
  for (const [part, ms] of s.parts) console.log(`  ${pct(ms, s.busyMs).padStart(6)}  ${part}`);
  console.log("  functions by self time:");
  for (const [name, ms] of s.functions.slice(0, top)) console.log(`  ${pct(ms, s.busyMs).padStart(6)}  ${name}`);
}
