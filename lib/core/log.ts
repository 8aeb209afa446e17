// Structured logs. Anything that can carry a secret is redacted by path.
import pino from "pino";
import { env } from "@/lib/core/env";

export const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "token",
  "*.token",
  "authToken",
  "*.authToken",
  "auth_token",
  "*.auth_token",
  "password",
  "*.password",
  "signingSecret",
  "*.signingSecret",
  "verificationToken",
  "*.verificationToken",
  "*.*.verificationToken",
  "secret",
  "*.secret",
];

// Secrets recognisable by their shape (API tokens, webhook signing secrets) are masked
// wherever they appear in a line, however deep: error messages, stacks, nested fields.
const SECRET_SHAPES = /\b(swb_live_|whsec_)[0-9A-Za-z+/=]{8,}/g;

export function scrubSecrets(line: string): string {
  return line.replace(SECRET_SHAPES, "$1[redacted]");
}

/** A logger with the project's redaction; tests pass their own destination to read lines. */
export function createLogger(
  destination: pino.DestinationStream = pino.destination(1),
  level: string = env().LOG_LEVEL,
): pino.Logger {
  const scrubbed: pino.DestinationStream = { write: (line: string) => destination.write(scrubSecrets(line)) };
  return pino({ level, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, base: undefined }, scrubbed);
}

export const log = createLogger();

/** Removes token-bearing query parameters from a URL before it is logged. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const k of ["authToken", "auth_token", "token"]) {
      if (u.searchParams.has(k)) u.searchParams.set(k, "[redacted]");
    }
    return u.pathname + u.search;
  } catch {
    return "[unparseable url]";
  }
}
