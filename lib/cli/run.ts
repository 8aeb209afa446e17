// Dispatches `npm run -s cli -- <command> [flags] [--json]`: validates input before touching
// the database, connects (DATABASE_URL, the running app's embedded socket, or .data/ opened
// here), runs the command, and always closes what it opened so the process can exit.
import { disconnectDb, getDb } from "@/lib/db";
import { closeOwnedEmbedded } from "@/lib/db/url";
import { EnvError, env } from "@/lib/env";
import { CliInputError, type CliOutput } from "./command";
import { COMMANDS } from "./commands";

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
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: npm run -s cli -- ${command.name} ${command.usage} [--json]\n  ${command.summary}\n`);
    return 0;
  }
  const fail = (code: number, message: string, argument?: string) => {
    io.err(`${command.name}: ${message}\n`);
    if (json) io.out(`${JSON.stringify({ error: { argument: argument ?? null, message } })}\n`);
    return code;
  };
  let execute: () => Promise<CliOutput>;
  try {
    env();
    execute = command.prepare(rest);
  } catch (error) {
    if (error instanceof CliInputError) {
      const code = fail(2, error.message, error.argument);
      io.err(`Usage: npm run -s cli -- ${command.name} ${command.usage} [--json]\n`);
      return code;
    }
    if (error instanceof EnvError) return fail(1, error.message);
    throw error;
  }
  try {
    await getDb();
    const result = await execute();
    io.out(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliInputError) return fail(2, error.message, error.argument);
    return fail(1, error instanceof Error ? error.message : String(error));
  } finally {
    await disconnectDb().catch(() => {});
    await closeOwnedEmbedded().catch(() => {});
  }
}
