// Reading the request: token locations (docs/api/authentication.md), bounded body, JSON parsing.
import { readAtMost, TooLargeError } from "@/lib/core/bounded-read";
import { ApiError } from "@/lib/core/errors";
import { findInputProblem, inputProblemError } from "@/lib/core/storable-input";

export const TOKEN_FIELDS = ["authToken", "auth_token", "token"] as const;

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m?.[1]?.trim() || undefined;
}

export function tokenFrom(source: Record<string, unknown> | URLSearchParams): string | undefined {
  for (const field of TOKEN_FIELDS) {
    const v = source instanceof URLSearchParams ? source.get(field) : source[field];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return undefined;
}

/** Reads at most `limit` bytes while they stream; more gives a 413 without buffering the rest. */
export async function readBody(request: Request, limit: number): Promise<string> {
  try {
    return (await readAtMost(request.body, limit, request.headers.get("content-length"))).toString("utf8");
  } catch (error) {
    if (error instanceof TooLargeError) {
      throw new ApiError("PAYLOAD_TOO_LARGE", error.message, { limitBytes: error.limitBytes });
    }
    throw error;
  }
}

export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  return /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): ParsedJson {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

export type BodyInput = {
  /** The parsed JSON (undefined for an empty body). */
  value: unknown;
  /** The body when it is a JSON object, else {} (token fallbacks, senderId). */
  record: Record<string, unknown>;
  /** What is wrong with the body, thrown by the router once authentication had its say. */
  error?: ApiError;
};

/**
 * A POST body, read (bounded) and parsed into what the router needs. Never throws for the
 * body's own faults (size, type, JSON, depth, text the database cannot store): they come
 * back as `error`, as the token may be in that body (docs/api/authentication.md "Presenting a token").
 */
export async function readJsonInput(
  request: Request,
  options: { limit: number; hasSchema: boolean; textCheckedPerRow?: string },
): Promise<BodyInput> {
  const failed = (error: ApiError): BodyInput => ({ value: undefined, record: {}, error });
  const unsupported = () =>
    failed(new ApiError("UNSUPPORTED_CONTENT_TYPE", "This endpoint accepts only Content-Type: application/json"));
  // A body the route would refuse anyway is not read at all.
  if (options.hasSchema && !isJsonContentType(request)) return unsupported();
  let text: string;
  try {
    text = await readBody(request, options.limit);
  } catch (error) {
    if (error instanceof ApiError) return failed(error);
    throw error;
  }
  if (text.trim() && !isJsonContentType(request)) return unsupported();
  const parsed = parseJson(text);
  // The parser's message would echo part of the body back: keep it out.
  if (!parsed.ok)
    return failed(new ApiError("VALIDATION_FAILED", "Malformed JSON body: the request body is not valid JSON"));
  const rows = options.textCheckedPerRow;
  const skip = rows ? [`body.${rows}`, ...(Array.isArray(parsed.value) ? ["body"] : [])] : [];
  const problem = findInputProblem(parsed.value, "body", { skipTextUnder: skip });
  if (problem) return failed(inputProblemError(problem));
  const value = parsed.value;
  const isRecord = value !== null && typeof value === "object" && !Array.isArray(value);
  return { value, record: isRecord ? (value as Record<string, unknown>) : {} };
}

/**
 * An upload's text fields and its received file as the body the route's schema parses: the
 * fields checked like a JSON body's text (a NUL byte or a lone surrogate is refused).
 */
export function readFormInput(fields: Record<string, string>, fileField: string, file: unknown): BodyInput {
  const problem = findInputProblem(fields, "body");
  if (problem) return { value: undefined, record: {}, error: inputProblemError(problem) };
  const record: Record<string, unknown> = { ...fields };
  if (file !== undefined) record[fileField] = file;
  return { value: record, record };
}
