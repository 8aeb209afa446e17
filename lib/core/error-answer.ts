// The one way anything thrown becomes an answer (docs/architecture.md "Errors"): the API
// envelope, the provider-shaped errors, the lean server, the dashboard handlers, the server
// actions and the CLI all render from errorAnswer, so a code has one status everywhere and
// a field error keeps the name of the field it is about.
import { ZodError } from "zod";
import { codedRefusal, uncodedIssues } from "./coded-issue";
import { ApiError, type ErrorCode, inputErrorFrom } from "./errors";

/** An input field an error is about: `path` as the caller named its input (e.g. "body.webhook.name"). */
export type FieldError = { path: string; message: string };

export type ErrorAnswer = {
  status: number;
  /** The error_code on the wire (wireCodeOf: 405 and 429 travel as REQUEST_FAILED). */
  code: string;
  /** The code of the status table (ERROR_STATUS). */
  kind: ErrorCode;
  message: string;
  fields: FieldError[];
  /** The envelope's details (holds `fields` when there are any). */
  details: Record<string, unknown>;
  headers: Record<string, string>;
  /** Nothing we know: a 500 that says nothing internal. The caller logs what was thrown. */
  unexpected: boolean;
};

export type AnswerOptions = {
  /** Shown in the 500 answer so that support can find the log line. */
  requestId?: string;
  /**
   * The input a zod error is about as the client sent it ("body", "query"): put before every
   * issue path, and the message leads with the path, as the API's messages do. Without it
   * (forms, which show each message beside its field) the message is the first issue's own.
   */
  zodPrefix?: string;
};

/** The contract's VALIDATION_FAILED for zod issues, each field named by its path (see AnswerOptions.zodPrefix). */
export function validationError(error: ZodError, prefix?: string): ApiError {
  // A refusal with its own contract code (lib/core/coded-issue.ts) is answered on its own.
  const refusal = codedRefusal(error.issues);
  if (refusal) return refusal;
  const fields = uncodedIssues(error.issues).map((i) => ({
    path: [...(prefix ? [prefix] : []), ...i.path].join("."),
    message: i.message,
  }));
  const first = fields[0];
  const message = first ? (prefix ? `${first.path}: ${first.message}` : first.message) : "Invalid request";
  return new ApiError("VALIDATION_FAILED", message, { fields });
}

/** The fields of an ApiError: details.fields (a list), or details.field (one name) with the error's message. */
function fieldsOf(error: ApiError): FieldError[] {
  const { fields, field } = error.details;
  if (Array.isArray(fields)) {
    return fields.flatMap((f) =>
      f && typeof f === "object" && typeof f.path === "string"
        ? [{ path: f.path, message: typeof f.message === "string" ? f.message : error.message }]
        : [],
    );
  }
  return typeof field === "string" ? [{ path: field, message: error.message }] : [];
}

/** Turns an error of a lower layer's making into the contract error it means; undefined when it does not know it. */
export type ErrorRecogniser = (caught: unknown) => ApiError | undefined;

const recognisers: ErrorRecogniser[] = [];

/**
 * Lets errorAnswer know errors that only a lower layer can read: lib/db registers its
 * unique-constraint races (lib/db/unique-conflict.ts), as core imports no database code.
 */
export function recogniseErrors(recognise: ErrorRecogniser): void {
  if (!recognisers.includes(recognise)) recognisers.push(recognise);
}

function recognised(caught: unknown): ApiError | undefined {
  for (const recognise of recognisers) {
    const error = recognise(caught);
    if (error) return error;
  }
  return undefined;
}

export function errorAnswer(caught: unknown, options: AnswerOptions = {}): ErrorAnswer {
  const known =
    caught instanceof ApiError
      ? caught
      : caught instanceof ZodError
        ? validationError(caught, options.zodPrefix)
        : (inputErrorFrom(caught) ?? recognised(caught));
  const error =
    known ??
    new ApiError(
      "REQUEST_FAILED",
      options.requestId
        ? "The request could not be completed; quote the request id to support"
        : "The request could not be completed",
      options.requestId ? { requestId: options.requestId } : {},
    );
  return {
    status: error.status,
    code: error.wireCode,
    kind: error.code,
    message: error.message,
    fields: fieldsOf(error),
    details: error.details,
    headers: error.headers,
    unexpected: known === undefined,
  };
}
