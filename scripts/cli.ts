// Operator CLI: `npm run -s cli -- <command> [options] [--json]`. See lib/cli/.
import { runCli } from "@/lib/cli/run";

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
