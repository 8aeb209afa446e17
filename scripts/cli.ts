// Operator CLI: `npm run -s cli -- <command> [options] [--json]`. See lib/cli/.
import v8 from "node:v8";
import { runCli } from "@/lib/cli/run";

// A command is one short process: V8's optimising compiler (TurboFan) would compile the
// Prisma client's query compiler (WebAssembly) again in the background for speed the command
// never lives to use. Its baseline code (Liftoff) only: about a fifth less CPU for a command
// that uses Prisma (docs/benchmarks.md "The operator CLI"). Set before any
// WebAssembly is compiled (the database code loads with the command). Not for demo:seed, the
// one long command: it may run the embedded PGlite (WebAssembly too) in this process for
// seconds, where optimised code pays off.
if (process.argv[2] !== "demo:seed") v8.setFlagsFromString("--liftoff-only");

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
