// npm run bench:all: every bench:* script in sequence (docs/benchmarks.md "Running them all"),
// each writing its section of docs/benchmarks.md, then one summary of every target printed
// with met / not met and how long each script took. Arguments after `--` go to every script
// that takes them (--rounds=N, --duration=S, --warmup=S, --no-write); --skip=idle,memory,start leaves scripts out.
// bench:api and bench:reports run with --reuse: their 1M-record databases are seeded once and kept.
import { spawn } from "node:child_process";
import os from "node:os";

const args = process.argv.slice(2);
const skip = new Set((args.find((a) => a.startsWith("--skip="))?.slice(7) ?? "").split(",").filter(Boolean));
const shared = args.filter((a) => /^--(rounds|duration|warmup|no-write)/.test(a));
const SCRIPTS = [
  ["api", ["--reuse", ...shared]],
  ["send", shared],
  ["events", shared.filter((a) => !a.startsWith("--duration"))],
  ["memory", []],
  ["idle", []],
  ["live", shared.filter((a) => !a.startsWith("--duration"))],
  ["start", []],
  ["broadcast", shared.filter((a) => /^--(rounds|no-write)/.test(a))],
  ["media", shared.filter((a) => /^--(rounds|warmup|no-write)/.test(a))],
  ["reports", ["--reuse", ...shared.filter((a) => /^--(rounds|no-write)/.test(a))]],
  ["automation", shared.filter((a) => /^--(rounds|warmup|no-write)/.test(a))],
];

const summary = [];
const started = Date.now();
console.log(
  `bench:all: load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")} at start`,
);
for (const [name, scriptArgs] of SCRIPTS) {
  if (skip.has(name)) continue;
  const t0 = Date.now();
  console.log(`\n=== npm run bench:${name} ${scriptArgs.join(" ")}`);
  const lines = [];
  const code = await new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", `bench:${name}`, "--", ...scriptArgs], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let rest = "";
    child.stdout.on("data", (d) => {
      process.stdout.write(d);
      const text = rest + d.toString();
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
    });
    child.on("exit", (c) => {
      if (rest) lines.push(rest);
      resolve(c);
    });
  });
  const seconds = Math.round((Date.now() - t0) / 1000);
  const verdicts = lines.filter((l) => /: (met|not met)\b|-> target .*: (met|not met)$/.test(l)).map((l) => l.trim());
  summary.push({ name, code, seconds, verdicts });
}

console.log(`\n=== bench:all summary (${Math.round((Date.now() - started) / 60000)} min in all)`);
for (const s of summary) {
  console.log(`bench:${s.name}: ${s.seconds} s${s.code === 0 ? "" : ` (exit code ${s.code})`}`);
  for (const v of s.verdicts) console.log(`  ${v}`);
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")} at the end`,
);
process.exit(summary.some((s) => s.code !== 0) ? 1 : 0);
