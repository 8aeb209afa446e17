// Calls any router function in-process (the table-independent router tests build their
// own with createRouter) the way test/factory.ts `call` calls the real one. Every answer
// goes to the recorders a test registers (recordAnswers), which is how recordApiAnswers
// (test/api-answers.ts) validates every answer against the OpenAPI document.
import { randomBytes } from "node:crypto";
import type { RequestInfo } from "@/lib/api/router";

export type Handle = (request: Request, info?: RequestInfo) => Promise<Response>;

export type CallOptions = {
  token?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** Raw body text (sent as is, e.g. malformed JSON). */
  rawBody?: string;
  /** A multipart/form-data body (an upload): the Request sets its Content-Type with the boundary. */
  form?: FormData;
  headers?: Record<string, string>;
  ip?: string;
};

export type CallResult = {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
};

/** One answer as a recorder sees it: the request's method, path, query and body, the status and JSON body. */
export type RecordedAnswer = {
  method: string;
  path: string;
  status: number;
  body: unknown;
  query?: CallOptions["query"];
  request?: unknown;
};

const recorders = new Set<(answer: RecordedAnswer) => void>();

/** Sends every later answer of `call`/`callWith` to `recorder`; returns the function that stops it. */
export function recordAnswers(recorder: (answer: RecordedAnswer) => void): () => void {
  recorders.add(recorder);
  return () => recorders.delete(recorder);
}

/** A fresh client address per call unless the test pins one. */
export const randomIp = () => `10.${randomBytes(3).join(".")}`;

export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  const url = new URL(path, "http://localhost");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.form !== undefined) body = options.form;
  else if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return new Request(url, { method, headers, body });
}

export async function readResult(response: Response): Promise<CallResult> {
  // A file's bytes (the media content route) stay bytes; JSON and text are parsed as before.
  if (
    /^application\/json\b/.test(response.headers.get("content-type") ?? "") === false &&
    response.headers.has("etag")
  ) {
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed };
}

export async function callWith(
  handle: Handle,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const request = buildRequest(method, path, options);
  const result = await readResult(await handle(request, { clientIp: options.ip ?? randomIp() }));
  const pathname = new URL(request.url).pathname;
  const answer = { method, path: pathname, status: result.status, body: result.body };
  for (const record of recorders) {
    record({
      ...answer,
      query: options.query,
      request: options.form ? Object.fromEntries(options.form) : options.body,
    });
  }
  return result;
}
