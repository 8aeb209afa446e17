// Dispatches `npm run -s cli -- <command> [flags] [--json]`: validates input before touching
// the database, connects (DATABASE_URL, the running app's embedded socket, or .data/ opened
// here), runs the command, and always closes what it opened so the process can exit.
// Only the command table is loaded up front: the help text and an unknown command load no
// command, no zod and no database code; the command that runs is imported, then the
// environment and the database pool; the Prisma client only if the command uses it
// (docs/benchmarks.md "Start-up and the operator CLI").
import type { CliOutput } from "./command";
import { COMMANDS } from "./commands";
import { CliInputError } from "./input-error";

export type Io = { out: (text: string) => void; err: (text: string) => void };

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.usage}\n  ${" ".repeat(width)}  ${c.summary}`);
  return [
    "Usage: npm run -s cli -- <command> [options] [--json]",
    "",
    "Commands:",
    ...lines,
    "",
    "--json prints one JSON object on stdout. Bad input exits with status 2.",
  ].join("\n");
}

/** Runs the CLI; returns the exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const json = argv.includes("--json");
  const args = argv.filter((a) => a !== "--json");
  const [name, ...rest] = args;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    (name ? io.out : io.err)(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(`Unknown command "${name}".\n\n${usage()}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: npm run -s cli -- ${entry.name} ${entry.usage} [--json]\n  ${entry.summary}\n`);
    return 0;
  }
  const [command, { EnvError, env }] = await Promise.all([entry.load(), import("@/lib/core/env")]);
  // Every failure, before or after connecting, is reported here: bad input (the flag it is
  // about, exit 2, with the usage line while the input was still being read), or anything
  // else (exit 1; the operator's terminal is the log, so the message is printed).
  const fail = (error: unknown, reading: boolean) => {
    const input = error instanceof CliInputError;
    const message = error instanceof Error ? error.message : String(error);
    io.err(`${entry.name}: ${message}\n`);
    if (json) {
      const argument = input ? (error.argument ?? null) : null;
      io.out(`${JSON.stringify({ error: { argument, message } })}\n`);
    }
    if (input && reading) io.err(`Usage: npm run -s cli -- ${entry.name} ${entry.usage} [--json]\n`);
    return input ? 2 : 1;
  };
  let execute: () => Promise<CliOutput>;
  try {
    env();
    execute = command.prepare(rest);
  } catch (error) {
    if (error instanceof CliInputError || error instanceof EnvError) return fail(error, true);
    throw error;
  }
  // The pool only: a command that uses the Prisma client (lib/db/index.ts) creates it on this pool
  // when it first uses it; one that only runs hotRows never loads Prisma.
  const { connectPool, disconnectDb } = await import("@/lib/db/pool");
  const { closeOwnedEmbedded } = await import("@/lib/db/url");
  // An operator's command is not a request: no statement timeout (lib/core/db-context.ts).
  const { asBackgroundWork } = await import("@/lib/core/db-context");
  try {
    await connectPool();
    const result = await asBackgroundWork(execute);
    io.out(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    return fail(error, false);
  } finally {
    await disconnectDb().catch(() => {});
    await closeOwnedEmbedded().catch(() => {});
  }
}
