// The operator CLI's bad-input error, in a file of its own so that the dispatcher
// (lib/cli/run.ts) can tell it apart without loading zod or any command.

/** Bad input: the message starts with the argument it is about (e.g. "--phone: ..."). */
export class CliInputError extends Error {
  constructor(
    readonly argument: string | undefined,
    message: string,
  ) {
    super(argument ? `${argument}: ${message}` : message);
    this.name = "CliInputError";
  }
}
