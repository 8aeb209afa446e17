// A route is a definition: what it needs, and the one service call it makes. The router
// (router.ts) does everything else once for every route.
import type { Readable } from "node:stream";
import type { z } from "zod";
import type { ErrorCode } from "@/lib/core/errors";
import type { Version } from "@/lib/core/version";
import type { Permission, TokenPermission } from "@/lib/domains/auth/permissions";
import type { Feature, Principal } from "@/lib/domains/auth/principal";
import type { ResolveOptions, Sender } from "@/lib/domains/senders/service";
import type { Received, UploadInfo } from "./multipart";

export { VERSIONS, type Version } from "@/lib/core/version";

export type LimitClass = "global" | "send" | "reports";

type SenderMode = "none" | "resolve" | "phoneNumberId";

/**
 * Whether the definition's resolution always yields a sender: "phoneNumberId" does (or the
 * path is no route), "resolve" does unless its options say `useDefault: false` (a global
 * token without senderId then reads every sender). Options tsc cannot read count as "may not".
 */
type AlwaysResolves<S, O> = S extends "phoneNumberId"
  ? true
  : S extends "resolve"
    ? "useDefault" extends keyof O
      ? O extends { useDefault?: true }
        ? true
        : false
      : true
    : false;

/** The handler's sender: a resolved Sender when the definition promises one, else maybe none. */
type SenderOf<S, O> = AlwaysResolves<S, O> extends true ? Sender : S extends "none" ? undefined : Sender | undefined;

/** The names of a path's parameters: "/webhooks/:webhookUid/deliveries/:deliveryId" → "webhookUid" | "deliveryId". */
type PathParamNames<P extends string> = string extends P
  ? string
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParamNames<`/${Rest}`>
    : P extends `${string}:${infer Name}`
      ? Name
      : never;

/** A path parameter's schema: text in, text out (a path segment, percent-decoded). */
type ParamSchema = z.ZodType<string, string>;

/** One zod schema per path parameter: the router parses each once, before the handler runs. */
type ParamSchemas<Path extends string> = { readonly [K in PathParamNames<Path>]: ParamSchema };

/** The parsed path parameters, by name: each as its schema outputs it. */
type ParamsOf<Path extends string, P> = {
  [K in PathParamNames<Path>]: K extends keyof P ? (P[K] extends ParamSchema ? z.output<P[K]> : string) : string;
};

export type HandlerContext<Q, B, S = Sender | undefined, P = Record<string, string>> = {
  request: Request;
  version: Version;
  requestId: string;
  principal: Principal;
  sender: S;
  params: P;
  query: Q;
  body: B;
};

/** What a handler returns: the router wraps it in the success envelope. */
export type RouteResult = EnvelopeResult | RawResult;

export type EnvelopeResult = {
  status?: number;
  message: string;
  data: unknown;
  /** The status of a success answer (201 for creates that say so); 200 when absent. */
  successStatus?: 200 | 201;
  /** Top-level siblings of data (e.g. signingSecret on webhook create). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** A body sent as is, without the envelope (the provider-compatible routes). */
export type RawResult = { status?: number; raw: unknown; headers?: Record<string, string> };

type Schema = z.ZodType;

/** T with every array and object read-only: examples are declared `as const`. */
type DeepReadonly<T> = T extends readonly (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * The example of an operation in the OpenAPI document (docs/openapi.md), typed against the
 * route's own schemas so that tsc refuses a wrong one; lib/api/openapi-examples.test.ts
 * also parses each with its schema.
 */
export type RouteExample<Q extends Schema, B extends Schema, R extends Schema, Path extends string = string> = {
  /** A value per path parameter (":webhookUid" → webhookUid). */
  params?: { readonly [K in PathParamNames<Path>]: string };
  /** Query parameters worth showing (a subset of the query schema). */
  query?: DeepReadonly<Partial<z.input<Q>>>;
  /** The JSON request body, on routes with a body. */
  request?: DeepReadonly<z.input<B>>;
  /** An upload's text fields (the file itself cannot be shown), on routes with `upload`. */
  form?: Readonly<Record<string, string>>;
  /** The success envelope's message; the summary when absent. */
  message?: string;
  /** The success envelope's data; on provider-style routes the bare body answered. */
  response: DeepReadonly<z.output<R>>;
  /** Top-level siblings of data (the route's responseExtra, e.g. signingSecret). */
  extra?: Readonly<Record<string, unknown>>;
};

/** Success-answer headers a handler may set (a send's receipt, a created template). */
export type ResponseHeader = "X-Service-Message-Id" | "X-Service-Queued" | "X-Service-Template-Uid";

/** A send's receipt headers (lib/domains/messaging/serializers.ts receiptHeaders). */
export const SEND_RESPONSE_HEADERS: readonly ResponseHeader[] = ["X-Service-Message-Id", "X-Service-Queued"];

export type RouteDef<
  Q extends Schema = Schema,
  B extends Schema = Schema,
  R extends Schema = Schema,
  Path extends string = string,
  P extends Partial<ParamSchemas<Path>> = Partial<ParamSchemas<Path>>,
  S extends SenderMode = SenderMode,
  O extends ResolveOptions = ResolveOptions,
> = {
  method: "GET" | "POST" | "DELETE";
  /** Below the version prefix, e.g. "/webhooks/:webhookUid". */
  path: Path;
  versions: readonly Version[];
  /** The operation's name in the reference sidebar: short (at most 45 characters), no detail. */
  summary: string;
  /** The detail: filters, limits, what the answer carries (the OpenAPI operation's description). */
  description?: string;
  tag: string;
  /** "public": no token (only the OpenAPI document). */
  auth?: "token" | "public";
  /**
   * true: the dashboard's browser code calls it too, as the signed-in member, at the same path
   * under /api/dashboard (docs/dashboard.md "Data the browser holds"): the member's role must
   * hold `permission` (the one vocabulary of lib/domains/auth/permissions.ts; 401 without a
   * session, 403 PERMISSION_DENIED without it), a mutation must come from our own pages as JSON
   * (multipart for an upload), and no rate limit applies. The handler tells the two apart by
   * `principal.via` ("token" or "session"). Needs `permission`.
   *
   * "only": the dashboard's alone, served under /api/dashboard as `true` is and never to a token
   * (no /api/v2 or /api/v3 path answers it, and the OpenAPI document has no operation for it):
   * what the browser needs and the public API has no route for (the assignee picker, the saved
   * replies of the reply box). Such routes are listed in lib/api/dashboard-route-table.ts, not
   * in the public table (docs/dashboard.md "Data the browser holds").
   */
  session?: true | "only";
  /**
   * The permission a member's role must hold here when it is not `permission` (the token's):
   * the inbox's files are the `inbox` row for members (docs/media.md "Inbox"), while tokens
   * upload and read them with `messages.send` and `messages.read`. A dashboard-only route may
   * name only this, for a permission no token holds (the live stream's `dashboard`).
   */
  sessionPermission?: Permission;
  /** "global": number-scoped tokens get TOKEN_SCOPE_NOT_ALLOWED. */
  tokenScope?: "global" | "any";
  /**
   * The permission a token needs here (lib/domains/auth/permissions.ts TOKEN_PERMISSIONS): a
   * restricted token without it gets TOKEN_PERMISSION_DENIED (docs/tokens.md "Restricted
   * tokens"). Every route of the table but the public ones names one (test/security.test.ts
   * fails on a route without); absent, only a token holding every permission may call it.
   */
  permission?: TokenPermission;
  /**
   * How a sender is resolved (see lib/domains/senders): "resolve" from senderId or the token,
   * "phoneNumberId" from the path parameter of that name.
   */
  sender?: S;
  senderOptions?: O;
  feature?: Feature;
  limit: LimitClass;
  /**
   * What a path segment must look like for the path to be this route's at all (else it is no
   * route: 404 NOT_FOUND), for a path whose one segment names different things by their form
   * (the provider's GET /{id}: a phone number id or a media id). Unanchored source.
   */
  pathMatch?: Partial<Record<PathParamNames<Path>, RegExp>>;
  /** The not-found code per path parameter (NOT_FOUND when absent), for ids that cannot exist. */
  paramNotFound?: Partial<Record<PathParamNames<Path>, ErrorCode>>;
  /** Largest accepted body for this route; API_BODY_LIMIT_BYTES when absent. */
  bodyLimitBytes?: number;
  /**
   * A multipart/form-data upload instead of a JSON body (docs/openapi.md "Uploads"): the token
   * comes from the Authorization header, checked before any of the body is read; the router
   * streams the one file part named `field` to `receive` (which writes it somewhere and may
   * refuse it early: nothing more is parsed), collects the text fields, and parses
   * `{...fields, [field]: what receive returned}` with `body`. What `receive` returned is
   * discarded after the handler (the handler moves what it keeps).
   */
  upload?: {
    field: string;
    /** The largest body read: the largest file and the multipart overhead. */
    maxBytes: number;
    receive: (principal: Principal, file: Readable, info: UploadInfo) => Promise<Received>;
  };
  /**
   * A body array (e.g. "contacts") whose rows the handler checks one by one: text the
   * database cannot store is reported for its row, not refused for the whole request.
   */
  textCheckedPerRow?: string;
  query?: Q;
  /** One schema, or one per version when a version changes the rules (Direct Send). */
  body?: B | Readonly<Record<Version, B>>;
  /**
   * Honours Idempotency-Key (lib/domains/idempotency/service.ts): the router stores the first answer
   * of a key and replays it. The value names the operation; routes sharing it share keys.
   */
  idempotent?: string;
  /**
   * Headers of the success answer beyond those every answer has (request id, rate limit) and
   * those the definition implies (Idempotent-Replayed, X-Service-Phone-Number-Id): the OpenAPI
   * document declares them (components.headers in lib/api/openapi.ts).
   */
  responseHeaders?: readonly ResponseHeader[];
  /** Provider-compatible routes answer errors in the provider's shape (docs/api/errors.md "Provider-shaped errors"). */
  errorStyle?: "envelope" | "provider";
  /**
   * Schema of data in the success envelope, for the OpenAPI document; on provider-style
   * routes (errorStyle "provider") the schema of the bare body they answer.
   */
  response?: R;
  /**
   * The example request and success answer of the OpenAPI document (docs/openapi.md): every
   * route has one (lib/api/openapi-examples.test.ts names a route without).
   */
  example?: RouteExample<Q, B, R, Path>;
  /** The status of a success answer (201 for creates that say so); 200 when absent. */
  successStatus?: 200 | 201;
  /**
   * The success answer is a file's bytes, not JSON (the handler returns fileResponse(), lib/api/file-response.ts):
   * 200 whole, 206 one Range, 304 when If-None-Match names its ETag.
   */
  fileAnswer?: true;
  /** Top-level siblings of data the handler returns in `extra` (e.g. signingSecret). */
  responseExtra?: Readonly<Record<string, Schema>>;
  /**
   * Domain codes the service can answer, beyond those the router derives from this
   * definition (auth, sender, feature, body, idempotency, paramNotFound): the OpenAPI
   * document lists exactly these per operation.
   */
  errors?: readonly ErrorCode[];
  handler: (
    ctx: HandlerContext<z.output<Q>, z.output<B>, SenderOf<S, O>, ParamsOf<Path, P>>,
  ) => Promise<RouteResult | Response>;
} & ParamsField<Path, P>;

/**
 * A zod schema per path parameter (e.g. `{ webhookUid: WebhookUid }`), required when the path
 * has parameters: the router parses each once; a value the schema refuses names nothing and
 * answers the parameter's `paramNotFound` code (NOT_FOUND when absent). The handler gets the
 * parsed values. (The erased AnyRoute may have any.)
 */
type ParamsField<Path extends string, P> = string extends Path
  ? { params?: P }
  : [PathParamNames<Path>] extends [never]
    ? { params?: P }
    : { params: P & ParamSchemas<Path> };

/** The body schema a request of this version is parsed with. */
export function bodySchema(route: AnyRoute, version: Version): Schema | undefined {
  const body = route.body;
  if (body === undefined || isSchema(body)) return body;
  return body[version];
}

const isSchema = (value: object): value is Schema => "safeParse" in value;

// Erases the schema generics so that routes of different shapes share one table.
export type AnyRoute = RouteDef<Schema, Schema, Schema>;

/** What a signed-in member's role must hold for a session route: `sessionPermission`, else `permission`. */
export const memberPermission = (r: AnyRoute): Permission | undefined => r.sessionPermission ?? r.permission;

/** A route of the table: tsc types the handler's query, body, params and sender from the definition. */
export function route<
  Path extends string,
  Q extends Schema = z.ZodUndefined,
  B extends Schema = z.ZodUndefined,
  R extends Schema = z.ZodUnknown,
  P extends Partial<ParamSchemas<Path>> = Record<never, never>,
  S extends SenderMode = "none",
  O extends ResolveOptions = Record<never, never>,
>(def: RouteDef<Q, B, R, Path, P, S, O>): AnyRoute {
  return def as unknown as AnyRoute;
}

export const ok = (message: string, data: unknown, extra?: Record<string, unknown>): EnvelopeResult => ({
  message,
  data,
  extra,
});
