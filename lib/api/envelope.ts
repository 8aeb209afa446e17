// The success and error envelopes (docs/api/errors.md), and the provider-shaped error
// body of the provider-compatible routes.

import { env } from "@/lib/core/env";
import type { ErrorAnswer } from "@/lib/core/error-answer";
import { ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import type { Version } from "./route-definition";

export type Meta = { version: Version; requestId: string; startedAt: number };

function metadata(meta: Meta) {
  return {
    apiVersion: meta.version,
    requestId: meta.requestId,
    ...(meta.version === "v3"
      ? { processingTimeMs: Math.round((performance.now() - meta.startedAt) * 100) / 100 }
      : {}),
  };
}

// The JSON text of each Response built by json(), so the lean node:http server writes the
// text itself instead of reading the body back through web streams (lib/http/node-adapter.ts;
// docs/benchmarks.md "Public API"). The Response keeps its own body for every other reader.
const jsonTexts = new WeakMap<Response, string>();

/** The JSON text a Response from json() was built with, if it is one. */
export const jsonTextOf = (response: Response): string | undefined => jsonTexts.get(response);

export function json(status: number, body: unknown, headers: Record<string, string>): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
  jsonTexts.set(response, text);
  return response;
}

export function successBody(meta: Meta, message: string, data: unknown, extra?: Record<string, unknown>) {
  return { success: true, message, data, ...extra, metadata: metadata(meta) };
}

/**
 * Where the integrator docs explain an error (docs/integrators/errors.md, served at /docs/errors):
 * the anchor is the status table's code in lower case, so a 405 or 429 that travels as
 * REQUEST_FAILED still points at its own entry. Absolute from PUBLIC_URL when it is set,
 * else relative to the host that answered.
 */
export function errorDocUrl(kind: ErrorCode): string {
  const base = env().PUBLIC_URL?.replace(/\/+$/, "") ?? "";
  return `${base}/docs/errors#${kind.toLowerCase()}`;
}

export function errorBody(meta: Meta, error: ErrorAnswer) {
  return {
    success: false,
    message: error.message,
    error_code: error.code,
    details: error.details,
    docUrl: errorDocUrl(error.kind),
    metadata: metadata(meta),
  };
}

// Provider (Graph API) error codes for our failure classes.
const PROVIDER_CODES: Record<string, { type: string; code: number; subcode: number | null }> = {
  MISSING_AUTH_TOKEN: { type: "OAuthException", code: 190, subcode: null },
  INVALID_AUTH_TOKEN: { type: "OAuthException", code: 190, subcode: 463 },
  CUSTOMER_TOKEN_REQUIRED: { type: "OAuthException", code: 200, subcode: null },
  TOKEN_SCOPE_NOT_ALLOWED: { type: "OAuthException", code: 200, subcode: null },
  TOKEN_PERMISSION_DENIED: { type: "OAuthException", code: 200, subcode: null },
  FEATURE_NOT_AVAILABLE: { type: "OAuthException", code: 10, subcode: null },
  RATE_LIMITED: { type: "OAuthException", code: 80007, subcode: null },
  // "Temporary issue due to downtime: retry the operation after waiting."
  SERVICE_UNAVAILABLE: { type: "OAuthException", code: 2, subcode: null },
  // "Re-engagement message": more than 24 hours since the contact's last message.
  CUSTOMER_SERVICE_WINDOW_CLOSED: { type: "OAuthException", code: 131047, subcode: null },
  // "Template name does not exist in the translation", answered 400 by the provider.
  TEMPLATE_NOT_FOUND: { type: "OAuthException", code: 132001, subcode: null },
};

// The provider answers these with another HTTP status than our envelope does: a stock SDK
// branches on the provider's (docs/api/errors.md "Provider-shaped errors").
const PROVIDER_STATUS: Partial<Record<ErrorCode, number>> = { TEMPLATE_NOT_FOUND: 400 };

/** The HTTP status of an error on a provider-compatible route. */
export const providerStatusOf = (code: ErrorCode): number => PROVIDER_STATUS[code] ?? ERROR_STATUS[code];

export function providerErrorBody(meta: Meta, error: ErrorAnswer) {
  const mapped = PROVIDER_CODES[error.kind] ?? {
    type: error.status >= 500 ? "InternalServerError" : "OAuthException",
    code: error.status >= 500 ? 1 : 100,
    subcode: null,
  };
  const providerCode = typeof error.details.providerCode === "number" ? error.details.providerCode : mapped.code;
  return {
    error: {
      message: error.message,
      type: mapped.type,
      code: providerCode,
      error_subcode: mapped.subcode,
      error_data: { details: error.message, error_code: error.code },
      fbtrace_id: meta.requestId,
    },
  };
}
