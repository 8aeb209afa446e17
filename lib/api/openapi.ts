// The OpenAPI 3.1 document, generated from the route table and its zod schemas (never
// kept by hand): served at /api/{v2,v3}/openapi.json and rendered at /docs/api.
import { z } from "zod";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode, wireCodeOf } from "@/lib/core/errors";
import { openObjects } from "@/lib/core/open-schema";
import { providerStatusOf } from "./envelope";
import { EVENTS_TAG, EVENTS_TAG_DESCRIPTION, type OpenApiWebhook, webhooksSection } from "./openapi-webhooks";
import { type AnyRoute, bodySchema, type ResponseHeader, VERSIONS } from "./route-definition";

type Json = Record<string, unknown>;

export type OpenApiParameter = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: Json;
  example?: unknown;
  /**
   * A path parameter whose form decides whether the path is this operation's at all (the
   * route's pathMatch, lib/api/router.ts): another form is no operation (404), not a 400.
   */
  "x-path-match"?: string;
};

type MediaType = { schema: Json; example?: unknown };

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { "application/json"?: MediaType; "multipart/form-data"?: MediaType } };
  security: Record<string, string[]>[];
  responses: Record<string, Json>;
  "x-versions": string[];
  "x-rate-limit": string;
  "x-token-scope": "global" | "any";
  /** The permission a restricted token needs here (docs/tokens.md "Restricted tokens"); absent on public operations. */
  "x-token-permission"?: string;
  "x-feature"?: string;
};

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; url: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What the service POSTs to webhook destinations, per event type (openapi-webhooks.ts). */
  webhooks: Record<string, OpenApiWebhook>;
  components: {
    schemas: Record<string, Json>;
    securitySchemes: Record<string, Json>;
    headers: Record<string, Json>;
  };
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Replaces "#/$defs/X" references (schemas with an id) by component references. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" ? v.replace(/^#\/\$defs\//, "#/components/schemas/") : rewriteRefs(v),
    ]),
  );
}

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect); shared $defs hoisted. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", defs: Record<string, Json>): Json {
  let generated: Json;
  try {
    generated = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  } catch (error) {
    // Two schemas sharing one id is a mistake in the schemas, not a shape to skip.
    if (error instanceof Error && error.message.startsWith("Duplicate schema id")) throw error;
    return {};
  }
  // Answers are open to added fields (lib/core/open-schema.ts); inputs stay as zod checks them.
  if (io === "output") generated = openObjects(generated);
  const { $schema: _dialect, $defs, ...rest } = generated;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    const component = rewriteRefs(def) as Json;
    // A named schema (`.meta({ id })` in a domain's schemas.ts) is one component: the same id
    // for two shapes (two schemas, or one read as input and as output) would hide one of them.
    if (defs[name] && JSON.stringify(defs[name]) !== JSON.stringify(component)) {
      throw new Error(
        `Component schema "${name}" has two different shapes (an id on an input schema, or on two schemas)`,
      );
    }
    defs[name] = component;
  }
  return rewriteRefs(rest) as Json;
}

/** The version path parameter: v3 first and the default (code samples and "try it" use it), v2 after. */
const versionSchema = (versions: readonly string[]) => {
  const ordered = [...versions].sort().reverse();
  return { type: "string", enum: ordered, default: ordered[0] };
};

/** "/webhooks/:webhookUid" under its version prefix: "/api/{version}/webhooks/{webhookUid}". */
export const openApiPath = (path: string) => `/api/{version}${path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;

export const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? "");

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid request",
  401: "Missing or invalid token",
  403: "Not allowed for this token or plan",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict with the resource's state",
  413: "Body or file too large",
  415: "Unsupported content type or file type",
  416: "Range outside the file",
  429: "Rate limit window exhausted",
  500: "Unexpected failure",
  503: "Briefly unavailable: retry after Retry-After seconds",
};

/**
 * The codes this route can answer, and only those: what the router derives from its
 * definition (router.ts: the rate limit, auth, token scope and permission, sender resolution, feature,
 * body reading and parsing, path parameters, idempotency) plus the route's own domain
 * `errors` (docs/openapi.md). A wrong method is the path's 405, not an operation's answer.
 */
export function errorCodesOf(route: AnyRoute): ErrorCode[] {
  // Any request may be limited, fail unexpectedly, carry a query the database cannot store, or
  // come while the database cannot be reached.
  const codes = new Set<ErrorCode>(["RATE_LIMITED", "REQUEST_FAILED", "VALIDATION_FAILED", "SERVICE_UNAVAILABLE"]);
  if (route.auth !== "public") {
    for (const c of ["MISSING_AUTH_TOKEN", "INVALID_AUTH_TOKEN", "CUSTOMER_TOKEN_REQUIRED"] as const) codes.add(c);
  }
  if (route.tokenScope === "global") codes.add("TOKEN_SCOPE_NOT_ALLOWED");
  if (route.auth !== "public") codes.add("TOKEN_PERMISSION_DENIED");
  if (route.sender === "resolve") {
    const options = route.senderOptions ?? {};
    codes.add("SENDER_NOT_FOUND");
    codes.add(options.scopeError ?? "TOKEN_SCOPE_NOT_ALLOWED");
    if (options.requireSetup !== false) codes.add("WHATSAPP_SETUP_INCOMPLETE");
  }
  if (route.sender === "phoneNumberId") {
    // An id that cannot be a phone number id is no route; another account's is SENDER_NOT_FOUND.
    for (const c of ["NOT_FOUND", "SENDER_NOT_FOUND", "TOKEN_SCOPE_NOT_ALLOWED"] as const) codes.add(c);
  }
  if (route.feature) codes.add("FEATURE_NOT_AVAILABLE");
  if (route.method === "POST") codes.add("PAYLOAD_TOO_LARGE");
  if (route.body) codes.add("UNSUPPORTED_CONTENT_TYPE");
  // A path parameter with a malformed percent-encoding or a NUL byte names nothing.
  for (const name of pathParamNames(route.path)) codes.add(route.paramNotFound?.[name] ?? "NOT_FOUND");
  if (pathParamNames(route.path).length > 0) codes.add("NOT_FOUND");
  if (route.idempotent) {
    codes.add("IDEMPOTENCY_KEY_REUSED");
    codes.add("IDEMPOTENCY_KEY_IN_PROGRESS");
  }
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

/** This route's wire codes by HTTP status. */
function routeCodesByStatus(route: AnyRoute): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodesOf(route)) {
    const status = route.errorStyle === "provider" ? providerStatusOf(code) : ERROR_STATUS[code];
    const list = byStatus.get(status) ?? [];
    const wire = wireCodeOf(code);
    if (!list.includes(wire)) list.push(wire);
    byStatus.set(status, list);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function errorResponse(status: number, list: string[], provider: boolean): Json {
  const headers: Json = { "X-Service-Request-Id": headerRef("RequestId") };
  if (status === 503) headers["Retry-After"] = headerRef("RetryAfter");
  if (status === 429) {
    headers["Retry-After"] = headerRef("RetryAfter");
    headers["RateLimit-Limit"] = headerRef("RateLimitLimit");
    headers["RateLimit-Remaining"] = headerRef("RateLimitRemaining");
    headers["RateLimit-Reset"] = headerRef("RateLimitReset");
  }
  const schema = provider
    ? ref("ProviderErrorEnvelope")
    : {
        allOf: [ref("ErrorEnvelope"), { type: "object", properties: { error_code: { type: "string", enum: list } } }],
      };
  const example = provider
    ? {
        error: {
          message: STATUS_TEXT[status] ?? "Error",
          type: status >= 500 ? "InternalServerError" : "OAuthException",
          code: status >= 500 ? 1 : 100,
          error_subcode: null,
          error_data: { details: STATUS_TEXT[status] ?? "Error", error_code: list[0] },
          fbtrace_id: "req_3f2a9c",
        },
      }
    : {
        success: false,
        message: STATUS_TEXT[status] ?? "Error",
        error_code: list[0],
        details: {},
        docUrl: `/docs/errors#${String(list[0]).toLowerCase()}`,
        metadata: { apiVersion: "v3", requestId: "req_3f2a9c" },
      };
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}: ${list.join(", ")}`,
    headers,
    content: { "application/json": { schema, example } },
  };
}

/** The example success answer: the route's example data in the envelope, or the bare body. */
function successExample(route: AnyRoute, bare: boolean): unknown {
  const example = route.example;
  if (!example || bare) return example?.response;
  return {
    success: true,
    message: example.message ?? route.summary,
    data: example.response,
    ...example.extra,
    metadata: { apiVersion: route.versions.at(-1) ?? "v3", requestId: "req_3f2a9c", processingTimeMs: 12 },
  };
}

function operationFor(route: AnyRoute, defs: Record<string, Json>): OpenApiOperation {
  // Per-version bodies: the newest version's schema names every field (the notes say which is v3 only).
  const body = bodySchema(route, route.versions[route.versions.length - 1] ?? "v3");
  const parameters: OpenApiParameter[] = [
    {
      name: "version",
      in: "path",
      required: true,
      description: "API version prefix",
      schema: versionSchema(route.versions),
    },
    ...pathParamNames(route.path).map((name): OpenApiParameter => {
      // The route's own schema of the parameter (route.params); any text when it declares none.
      const declared = route.params?.[name];
      const { description, ...schema } = declared ? jsonSchemaOf(declared, "input", defs) : { type: "string" };
      const example = route.example?.params?.[name];
      const match = route.pathMatch?.[name as keyof typeof route.pathMatch] as RegExp | undefined;
      return {
        name,
        in: "path",
        required: true,
        ...(typeof description === "string" ? { description } : {}),
        schema,
        ...(example !== undefined ? { example } : {}),
        ...(match ? { "x-path-match": `^(${match.source})$` } : {}),
      };
    }),
  ];
  if (route.idempotent) parameters.push(IDEMPOTENCY_KEY);
  if (route.query) {
    const q = jsonSchemaOf(route.query, "input", defs);
    const properties = (q.properties ?? {}) as Record<string, Json>;
    const required = new Set((q.required ?? []) as string[]);
    const inPath = new Set(pathParamNames(route.path));
    for (const [name, schema] of Object.entries(properties)) {
      // A path parameter also accepted in the query (senderId) is declared once, in the path.
      if (inPath.has(name)) continue;
      const { description, ...rest } = schema;
      const example = (route.example?.query as Record<string, unknown> | undefined)?.[name];
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        ...(typeof description === "string" ? { description } : {}),
        schema: rest,
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  const data = route.response ? jsonSchemaOf(route.response, "output", defs) : { type: "object" };
  const successHeaders: Json = {
    "X-Service-Request-Id": headerRef("RequestId"),
    "RateLimit-Limit": headerRef("RateLimitLimit"),
    "RateLimit-Remaining": headerRef("RateLimitRemaining"),
    "RateLimit-Reset": headerRef("RateLimitReset"),
  };
  if (route.sender === "resolve") successHeaders["X-Service-Phone-Number-Id"] = headerRef("PhoneNumberId");
  if (route.idempotent) successHeaders["Idempotent-Replayed"] = headerRef("IdempotentReplayed");
  for (const name of route.responseHeaders ?? []) successHeaders[name] = headerRef(RESPONSE_HEADER_COMPONENT[name]);
  const extra = Object.fromEntries(
    Object.entries(route.responseExtra ?? {}).map(([name, schema]) => [name, jsonSchemaOf(schema, "output", defs)]),
  );
  const envelope = {
    type: "object",
    required: ["success", "message", "data", "metadata", ...Object.keys(extra)],
    properties: {
      success: { const: true },
      message: { type: "string" },
      data,
      ...extra,
      metadata: ref("Metadata"),
    },
  };
  // The document itself is served bare, as OpenAPI tools expect; provider-style routes
  // answer the provider's own body (route.response describes it).
  const bare = route.path === "/openapi.json";
  const provider = route.errorStyle === "provider";
  const successSchema = bare || provider ? data : envelope;
  const success: MediaType = { schema: successSchema };
  if (route.example) success.example = successExample(route, bare || provider);
  const responses: Record<string, Json> = route.fileAnswer
    ? fileResponses(successHeaders)
    : {
        [String(route.successStatus ?? 200)]: {
          description: bare ? "This OpenAPI document" : provider ? "Success (the provider's response body)" : "Success",
          headers: successHeaders,
          content: { "application/json": success },
        },
      };
  for (const [status, list] of routeCodesByStatus(route)) {
    responses[String(status)] = errorResponse(status, list, provider);
  }
  const notes = [
    route.description ?? "",
    route.tokenScope === "global" ? "Requires a global token (number-scoped tokens get TOKEN_SCOPE_NOT_ALLOWED)." : "",
    route.permission
      ? `Requires the \`${route.permission}\` permission (a restricted token without it gets TOKEN_PERMISSION_DENIED).`
      : "",
    route.feature ? `Requires the ${route.feature} feature of the plan.` : "",
    route.versions.length < VERSIONS.length ? `Only on ${route.versions.join(", ")}.` : "",
    `Rate limit class: ${route.limit}.`,
  ].filter(Boolean);
  return {
    operationId: `${route.method.toLowerCase()}${route.path
      .split("/")
      .filter(Boolean)
      .map((s) => s.replace(/^:/, "by-"))
      .map((s) =>
        s
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((w) => w[0]?.toUpperCase() + w.slice(1))
          .join(""),
      )
      .join("")}`,
    summary: route.summary,
    description: notes.join(" "),
    tags: [route.tag],
    parameters,
    ...(body && route.upload
      ? {
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: jsonSchemaOf(body, "input", defs),
                ...(route.example?.form !== undefined
                  ? { example: { ...route.example.form, [route.upload.field]: "(the file's bytes)" } }
                  : {}),
              },
            },
          },
        }
      : body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: jsonSchemaOf(body, "input", defs),
                  ...(route.example?.request !== undefined ? { example: route.example.request } : {}),
                },
              },
            },
          }
        : {}),
    security: route.auth === "public" ? [] : [{ bearerAuth: [] }],
    responses,
    "x-versions": [...route.versions],
    "x-rate-limit": route.limit,
    "x-token-scope": route.tokenScope ?? "any",
    ...(route.permission ? { "x-token-permission": route.permission } : {}),
    ...(route.feature ? { "x-feature": route.feature } : {}),
  };
}

/** A file route's answers (route.fileAnswer): the bytes whole, one range of them, or not modified. */
function fileResponses(common: Json): Record<string, Json> {
  const bytes = { "application/octet-stream": { schema: { type: "string", format: "binary" } } };
  const file = {
    ...common,
    ETag: headerRef("ETag"),
    "Content-Disposition": headerRef("ContentDisposition"),
    "Cache-Control": headerRef("CacheControl"),
    "X-Content-Type-Options": headerRef("ContentTypeOptions"),
  };
  return {
    "200": { description: "The file's bytes, typed as the file (Content-Type)", headers: file, content: bytes },
    "206": {
      description: "One range of the file (Range: bytes=…), Content-Range says which",
      headers: { ...file, "Content-Range": headerRef("ContentRange") },
      content: bytes,
    },
    "304": { description: "Not modified: If-None-Match named the file's ETag", headers: file },
  };
}

const COMPONENT_SCHEMAS: Record<string, Json> = {
  Metadata: {
    type: "object",
    required: ["apiVersion", "requestId"],
    properties: {
      apiVersion: { type: "string", enum: [...VERSIONS] },
      requestId: { type: ["string", "null"], description: "Mirrors the X-Service-Request-Id header" },
      processingTimeMs: { type: "number", description: "v3 only" },
    },
  },
  ErrorEnvelope: {
    type: "object",
    required: ["success", "message", "error_code", "details", "metadata"],
    properties: {
      success: { const: false },
      message: { type: "string", description: "Human-readable; do not branch on it" },
      error_code: { type: "string", enum: [...ERROR_CODES] },
      details: { type: "object", description: "Endpoint-specific context; {} when nothing extra" },
      docUrl: {
        type: "string",
        description:
          "The error's entry in the integrator docs (/docs/errors#<code in lower case>): absolute when the service has a public URL, else relative",
      },
      metadata: ref("Metadata"),
    },
  },
  ProviderErrorEnvelope: {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["message", "type", "code", "error_subcode", "fbtrace_id"],
        properties: {
          message: { type: "string" },
          type: { type: "string" },
          code: { type: "integer" },
          error_subcode: { type: ["integer", "null"] },
          error_data: { type: "object" },
          fbtrace_id: { type: "string" },
        },
      },
    },
  },
};

const HEADERS: Record<string, Json> = {
  RequestId: { description: "Correlation id, on success and error", schema: { type: "string" } },
  PhoneNumberId: { description: "Provider phone number id of the resolved sender", schema: { type: "string" } },
  RateLimitLimit: { description: "Points of the tightest window", schema: { type: "integer" } },
  RateLimitRemaining: { description: "Points left in that window", schema: { type: "integer" } },
  RateLimitReset: { description: "Seconds until that window resets", schema: { type: "integer" } },
  RetryAfter: { description: "Seconds to wait before retrying", schema: { type: "integer" } },
  IdempotentReplayed: {
    description: "true when this answer is the stored answer of an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
  MessageId: { description: "The provider's id of the message sent (wamid…)", schema: { type: "string" } },
  TemplateUid: { description: "The uid of the template created", schema: { type: "string" } },
  ETag: { description: "The file's sha256 in quotes", schema: { type: "string" } },
  ContentDisposition: {
    description: "attachment for documents, inline for the rest, with the file's name",
    schema: { type: "string" },
  },
  CacheControl: { description: "private: never kept by shared caches", schema: { type: "string" } },
  ContentTypeOptions: { description: "nosniff: the type is the file's, never guessed", schema: { type: "string" } },
  ContentRange: { description: "The range sent and the file's size (bytes a-b/size)", schema: { type: "string" } },
  Queued: {
    description: "reconnect-queue when the sender is reconnecting and the message waits to be sent",
    schema: { type: "string", enum: ["reconnect-queue"] },
  },
};

const RESPONSE_HEADER_COMPONENT: Record<ResponseHeader, string> = {
  "X-Service-Message-Id": "MessageId",
  "X-Service-Queued": "Queued",
  "X-Service-Template-Uid": "TemplateUid",
};

/** The header of every operation that honours it (route.idempotent). */
const IDEMPOTENCY_KEY: OpenApiParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first answer of a key is stored and replayed (Idempotent-Replayed: true); the same key with another body is 409 IDEMPOTENCY_KEY_REUSED",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

/** One line per tag, shown by the reference page (docs/*.md say more). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Billing: "Prices, the ledger and per-sender billing history",
  Senders: "The account's sender numbers: list, connect, make default",
  "Contact books": "Contact books, contacts, custom fields and the blacklist",
  Webhooks: "Webhook destinations, the event catalog, deliveries and test events",
  Chatbots: "Keyword chatbots of a sender",
  Segments: "Saved audiences: rules over contacts, labels and activity; their live count; broadcasts send to them",
  Messaging: "Template, session and provider-compatible sends",
  Orders: "Order notifications",
  Templates: "Message templates",
  Reports: "Message reports and delivery analytics",
  Conversations: "Conversations with a contact and their messages",
  "Audit log": "Who changed what in the account: tokens, webhooks, members, senders, sign-ins",
  Media: "Files: uploads, inbound pictures, voice notes and documents, their bytes; sent by id",
  Documentation: "This document",
};

/** Builds the document for a route table. */
export function buildOpenApiDocument(table: readonly AnyRoute[], serverUrl = "/"): OpenApiDocument {
  const defs: Record<string, Json> = {};
  const paths: OpenApiDocument["paths"] = {};
  for (const route of table) {
    const key = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const existing = paths[key]?.[method];
    if (existing) {
      // The same path and method defined per version: one operation, all its versions.
      const versions = [...new Set([...existing["x-versions"], ...route.versions])];
      existing["x-versions"] = versions;
      const versionParam = existing.parameters.find((p) => p.name === "version");
      if (versionParam) versionParam.schema = versionSchema(versions);
      continue;
    }
    paths[key] = { ...paths[key], [method]: operationFor(route, defs) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchboard public API",
      version: "3.0.0",
      license: { name: "Proprietary", url: "https://switchboard.invalid/terms" },
      description:
        "Every path exists under `/api/v3` and `/api/v2` unless its version parameter says otherwise; v3 is the default. " +
        "Authenticate with `Authorization: Bearer <token>`; GET also accepts `?authToken=`, `?auth_token=` or `?token=`, " +
        "POST the same names in the JSON body.",
    },
    servers: [{ url: serverUrl }],
    tags: [
      ...[...new Set(table.map((r) => r.tag))].map((name) => ({
        name,
        description: TAG_DESCRIPTIONS[name] ?? name,
      })),
      { name: EVENTS_TAG, description: EVENTS_TAG_DESCRIPTION },
    ],
    paths,
    webhooks: webhooksSection(),
    components: {
      schemas: { ...defs, ...COMPONENT_SCHEMAS },
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "swb_live_ API token" } },
      headers: HEADERS,
    },
  };
}
