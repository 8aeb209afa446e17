// Calls any router function in-process (the table-independent router tests build their
// own with createRouter) the way test/factory.ts `call` calls the real one.
import { randomBytes } from "node:crypto";
import type { RequestInfo } from "@/lib/api/router";
import type { CallOptions, CallResult } from "./factory";

export type Handle = (request: Request, info?: RequestInfo) => Promise<Response>;

/** A fresh client address per call unless the test pins one. */
export const randomIp = () => `10.${randomBytes(3).join(".")}`;

export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  const url = new URL(path, "http://localhost");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return new Request(url, { method, headers, body });
}

export async function readResult(response: Response): Promise<CallResult> {
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
  return readResult(await handle(buildRequest(method, path, options), { clientIp: options.ip ?? randomIp() }));
}
