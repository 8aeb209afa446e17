// The shape of an operator CLI command's implementation: its flags (node:util parseArgs),
// a zod schema that validates them, and a run function. Errors name the flag or argument
// they are about. Its name, usage line and summary live in the command table
// (lib/cli/commands.ts), which the help text reads without loading any command.
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { z } from "zod";
import { errorAnswer } from "@/lib/core/error-answer";
import { CliInputError } from "./input-error";

export { CliInputError };

export type CliOutput = { json: Record<string, unknown>; text: string };

type Options = NonNullable<ParseArgsConfig["options"]>;

export type CommandSpec<S extends z.ZodType> = {
  /** Flags in kebab-case; the schema sees them in camelCase. */
  options?: Options;
  /** Names of positional arguments, in order (e.g. ["TOKEN_ID"]); the schema sees camelCase. */
  positionals?: string[];
  schema: S;
  run: (input: z.infer<S>) => Promise<CliOutput>;
};

export type CommandImplementation = {
  /** Parses and validates argv (no database access); returns the function that runs it. */
  prepare: (argv: string[]) => () => Promise<CliOutput>;
};

const camel = (s: string) => s.toLowerCase().replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Turns node:util's parse errors ("Unknown option '--x'") into a CliInputError. */
function parseError(error: unknown): CliInputError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const flag = /'(-{1,2}[\w-]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new CliInputError(flag, "unknown option");
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (message.includes("does not take")) return new CliInputError(flag, "does not take a value");
    if (message.includes("ambiguous")) {
      return new CliInputError(flag, `needs a value (for a value starting with "-", write ${flag}=VALUE)`);
    }
    return new CliInputError(flag, "needs a value");
  }
  return new CliInputError(flag, message);
}

/**
 * The CLI's one error mapping (every command, its flags and its run): anything thrown goes
 * through errorAnswer; a refusal of the input (a 4xx) becomes a CliInputError naming the
 * flag of its first field; undefined means a failure that is not the operator's input.
 */
export function cliInputErrorFrom(
  caught: unknown,
  flagOf: (path: string) => string | undefined,
): CliInputError | undefined {
  if (caught instanceof CliInputError) return caught;
  const answer = errorAnswer(caught);
  if (answer.unexpected || answer.status >= 500) return undefined;
  const field = answer.fields[0];
  return field ? new CliInputError(flagOf(field.path), field.message) : new CliInputError(undefined, answer.message);
}

export function defineCommand<S extends z.ZodType>(spec: CommandSpec<S>): CommandImplementation {
  const positionalNames = spec.positionals ?? [];
  const flagFor = new Map<string, string>();
  for (const name of Object.keys(spec.options ?? {})) flagFor.set(camel(name), `--${name}`);
  for (const name of positionalNames) flagFor.set(camel(name), name);
  /** A field path of the schema or of a service ("phoneNumberId") as the flag that carries it. */
  const flagOf = (path: string) => {
    const key = path.split(".")[0] ?? "";
    return key ? (flagFor.get(key) ?? `--${kebab(key)}`) : undefined;
  };
  return {
    prepare(argv) {
      let parsed: ReturnType<typeof parseArgs>;
      try {
        parsed = parseArgs({ args: argv, options: spec.options ?? {}, allowPositionals: true, strict: true });
      } catch (error) {
        throw parseError(error);
      }
      if (parsed.positionals.length > positionalNames.length) {
        throw new CliInputError(parsed.positionals[positionalNames.length], "unexpected argument");
      }
      const raw: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(parsed.values)) raw[camel(key)] = value;
      positionalNames.forEach((name, i) => {
        raw[camel(name)] = parsed.positionals[i];
      });
      const result = spec.schema.safeParse(raw);
      if (!result.success) {
        const issue = result.error.issues[0];
        const key = String(issue?.path[0] ?? "");
        if (issue?.code === "invalid_type" && key && raw[key] === undefined) {
          throw new CliInputError(flagOf(key), "is required");
        }
        throw cliInputErrorFrom(result.error, flagOf) ?? result.error;
      }
      const input = result.data;
      return async () => {
        try {
          return await spec.run(input);
        } catch (error) {
          throw cliInputErrorFrom(error, flagOf) ?? error;
        }
      };
    },
  };
}
