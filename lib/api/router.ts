// The public API as one framework-agnostic function: (Request) => Promise<Response>.
// Next's /api/v2 and /api/v3 route files and the lean node:http server mount it.
import { randomFillSync } from "node:crypto";
import type { z } from "zod";
import { RequestAbortedError } from "@/lib/core/bounded-read";
import { asRequest, requestCustomer } from "@/lib/core/db-context";
import { env } from "@/lib/core/env";
import { errorAnswer, validationError } from "@/lib/core/error-answer";
import { ApiError } from "@/lib/core/errors";
import { log, redactUrl } from "@/lib/core/log";
import { PathText } from "@/lib/core/path-params";
import { assertStorableInput } from "@/lib/core/storable-input";
import { assertTokenPermission } from "@/lib/domains/auth/access";
import type { Permission } from "@/lib/domains/auth/permissions";
import { hasFeature, type Principal } from "@/lib/domains/auth/principal";
import { fingerprint, idempotencyKeyFrom, withIdempotency } from "@/lib/domains/idempotency/service";
import { resolveSender, resolveSenderByPhoneNumberId, type Sender } from "@/lib/domains/senders/service";
import { verifyToken } from "@/lib/domains/tokens/service";
import { recordUsage } from "@/lib/domains/tokens/usage";
import { dashboardRoutes } from "./dashboard-route-table";
import { errorBody, json, type Meta, providerErrorBody, providerStatusOf, successBody } from "./envelope";
import { isMultipart, readMultipart } from "./multipart";
import { consumeRateLimits, type RateLimiter } from "./rate-limit";
import { type BodyInput, bearerToken, readFormInput, readJsonInput, TOKEN_FIELDS, tokenFrom } from "./request-body";
import {
  type AnyRoute,
  bodySchema,
  type HandlerContext,
  memberPermission,
  type RouteResult,
  type Version,
} from "./route-definition";
import { routes as defaultRoutes } from "./route-table";

// Request ids come from a pooled random buffer: one randomFillSync per 341 requests instead
// of a randomBytes call each (a per-request cost of the lean server, docs/benchmarks.md).
const idPool = Buffer.alloc(4092);
let idOffset = idPool.length;
function newRequestId(): string {
  if (idOffset + 12 > idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += 12;
  return `req_${idPool.toString("hex", idOffset - 12, idOffset)}`;
}

type Compiled = { route: AnyRoute; regex: RegExp; keys: string[]; shape: string };

function compile(route: AnyRoute): Compiled {
  const keys: string[] = [];
  const segments = route.path.split("/");
  const pattern = segments
    .map((seg) => {
      if (!seg.startsWith(":")) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      keys.push(seg.slice(1));
      // A provider phone number id is digits: /api/v3/nowhere is no route (404 envelope), never
      // GET /{phoneNumberId}'s, nor another method's 405.
      if (route.sender === "phoneNumberId" && seg === ":phoneNumberId") return "(\\d{1,30})";
      const own = route.pathMatch?.[seg.slice(1)];
      return own ? `(${own.source})` : "([^/]+)";
    })
    .join("/");
  // "0" per static segment, "1" per parameter: the smallest shape is the most specific.
  const shape = segments.map((seg) => (seg.startsWith(":") ? "1" : "0")).join("");
  return { route, regex: new RegExp(`^${pattern}/?$`), keys, shape };
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError("NOT_FOUND", "The path contains an invalid percent-encoding");
  }
}

/**
 * How a mount that knows the dashboard's session serves the routes marked `session: true`
 * under /api/dashboard (app/api/dashboard/[...path]/route.ts passes lib/dashboard's): the router
 * knows no cookie and no Next.
 */
export type SessionAuth = {
  /**
   * Throws when the request may not come with the session's cookie at all (a cross-site or
   * non-JSON mutation: lib/dashboard/request-guard.ts), before the session is read or the body.
   */
  guard: (request: Request, body: "json" | "multipart") => void;
  /** The signed-in member holding `permission`: throws UNAUTHORIZED without a session, PERMISSION_DENIED without it. */
  member: (permission: Permission) => Promise<Principal>;
};

export type RequestInfo = {
  clientIp?: string;
  /** Present on the dashboard's mount: /api/dashboard/... paths are the session routes. */
  session?: SessionAuth;
};
export type RouterOptions = { rateLimiter?: Pick<RateLimiter, "consume"> };

export function createRouter(table: readonly AnyRoute[], options: RouterOptions = {}) {
  const compiled = table.map(compile);
  const served = new Set<string>();
  for (const { route: r, regex } of compiled) {
    if (r.session && !memberPermission(r))
      throw new Error(`${r.method} ${r.path}: a session route names its permission`);
    // Two definitions of one method and path would leave the answer to the table's order.
    const pattern = `${r.method} ${regex.source}`;
    const audiences = r.session === "only" ? ["dashboard"] : r.session ? ["api", "dashboard"] : ["api"];
    for (const v of r.versions)
      for (const a of audiences) {
        const key = `${a} ${v} ${pattern}`;
        if (served.has(key)) throw new Error(`${r.method} ${r.path}: defined twice for the ${a} on ${v}`);
        served.add(key);
      }
  }
  const limit = options.rateLimiter ? options.rateLimiter.consume.bind(options.rateLimiter) : consumeRateLimits;

  // Each request's database work is its customer's, once the token says who that is: within
  // the customer's share of the request connections (lib/core/db-context.ts).
  return (request: Request, info: RequestInfo = {}): Promise<Response> => asRequest(() => handle(request, info));

  async function handle(request: Request, info: RequestInfo): Promise<Response> {
    const startedAt = performance.now();
    const requestId = newRequestId();
    const url = new URL(request.url);
    const prefix = /^\/api\/(v2|v3|dashboard)(\/.*)?$/.exec(url.pathname);
    // The dashboard's own fetches (docs/dashboard.md "Data the browser holds"): the routes
    // marked `session`, as v3 answers them, for the signed-in member.
    const session = prefix?.[1] === "dashboard" ? info.session : undefined;
    const version: Version = session ? "v3" : ((prefix?.[1] as Version | undefined) ?? "v3");
    const meta: Meta = { version, requestId, startedAt };
    const headers: Record<string, string> = { "X-Service-Request-Id": requestId };
    const clientIp = info.clientIp ?? "unknown";
    // HEAD is GET without a body.
    const method = request.method === "HEAD" ? "GET" : request.method;
    let errorStyle: AnyRoute["errorStyle"] = "envelope";
    let principal: Principal | undefined;
    // An upload's received file, discarded once the request is answered (the handler moved what it keeps).
    let cleanup: (() => Promise<void> | undefined) | undefined;
    // Usage (docs/tokens.md): queued after the response is built, written in batches.
    const done = (response: Response): Response => {
      if (principal?.via === "token") {
        recordUsage({
          customerId: principal.customerId,
          tokenId: principal.tokenId,
          at: new Date(),
          method: request.method,
          path: redactUrl(request.url),
          status: response.status,
          latencyMs: Math.round(performance.now() - startedAt),
          clientIp,
          requestId,
        });
      }
      return response;
    };

    try {
      const sub = prefix?.[2] ?? "/";
      const served = prefix && (prefix[1] !== "dashboard" || session);
      const matches = served
        ? compiled.flatMap((c) => {
            if (session ? !c.route.session : c.route.session === "only") return [];
            const m = c.regex.exec(sub);
            return m ? [{ c, m }] : [];
          })
        : [];
      // A path belongs to its most specific routes (/webhooks/events is never
      // /webhooks/:webhookUid, /billing/messages never /:phoneNumberId/messages), on
      // any version: so a v3-only path is 404 on v2, not another route's 405.
      const best = matches.reduce<string | undefined>(
        (s, { c }) => (s === undefined || c.shape < s ? c.shape : s),
        undefined,
      );
      const inVersion = matches.filter(({ c }) => c.shape === best && c.route.versions.includes(version));
      const hit = inVersion.find(({ c }) => c.route.method === method);
      if (!hit) {
        // Every request counts against the global window, unknown routes included (the
        // dashboard's fetches never did: a member's tab is no API client).
        if (!session) Object.assign(headers, (await limit("global", clientIp, undefined)).headers);
        if (inVersion.length === 0) throw new ApiError("NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
        const allowed = [...new Set(inVersion.map(({ c }) => c.route.method))];
        const allow = allowed.join(", ");
        throw new ApiError(
          "METHOD_NOT_ALLOWED",
          `Method ${request.method} is not allowed here; use ${allow}`,
          { allow: allowed },
          { Allow: allow },
        );
      }
      const route = hit.c.route;
      errorStyle = route.errorStyle ?? "envelope";
      const rawParams = Object.fromEntries(hit.c.keys.map((k, i) => [k, decodeParam(hit.m[i + 1] ?? "")]));

      // The token comes from the header (or a GET's query) before any body is read: the
      // rate limit and authentication run first, and only a verified token unlocks a
      // route's larger body limit. A POST without one may carry it in its JSON body
      // (docs/api/authentication.md): that body is read first, at the default limit only.
      const hasSchema = bodySchema(route, version) !== undefined;
      let presented = session
        ? undefined
        : (bearerToken(request) ?? (method === "GET" ? tokenFrom(url.searchParams) : undefined));
      let input: BodyInput | undefined;
      // An upload is never read before its token is known (docs/openapi.md "Uploads").
      const uploading = route.upload !== undefined && isMultipart(request);
      if (session) {
        // A forged cross-site request gets nothing: refused before the session is read.
        session.guard(request, route.upload ? "multipart" : "json");
        principal = await session.member(memberPermission(route) as Permission);
        requestCustomer(principal.customerId);
        assertFeature(principal, route);
      } else if (method === "POST" && !presented && !uploading) {
        input = await readRouteBody(request, route, hasSchema, env().API_BODY_LIMIT_BYTES);
        presented = tokenFrom(input.record);
      }

      // Limits are checked before any handler work, authentication included. The dashboard's
      // session routes have none, as its handlers never had.
      if (!session) Object.assign(headers, (await limit(route.limit, clientIp, presented)).headers);

      if (!session && route.auth !== "public") {
        // An unreadable body may have held the token: its error says more than "missing".
        if (!presented && input?.error) throw input.error;
        if (!presented)
          throw new ApiError("MISSING_AUTH_TOKEN", "An API token is required (Authorization: Bearer <token>)");
        const token = (await verifyToken(presented)).principal;
        principal = token;
        requestCustomer(token.customerId);
        // Who and from where, for the audit log of what this request changes (docs/security.md).
        token.origin = { ip: clientIp, userAgent: request.headers.get("user-agent") };
        if (route.tokenScope === "global" && token.scopedSenderId) {
          throw new ApiError(
            "TOKEN_SCOPE_NOT_ALLOWED",
            "This endpoint requires a global token, not a number-scoped one",
          );
        }
        // A restricted token holds only its chosen permissions (docs/tokens.md "Restricted tokens").
        assertTokenPermission(token, route.permission);
        assertFeature(token, route);
      }
      let sender: Sender | undefined;
      if (method === "POST" && route.upload && principal) {
        const upload = route.upload;
        const verified = principal;
        if (input)
          throw new ApiError(
            "UNSUPPORTED_CONTENT_TYPE",
            "This endpoint accepts only Content-Type: multipart/form-data",
          );
        // A file is never read for a sender the path names and the account does not have.
        if (route.sender === "phoneNumberId") {
          sender = await resolveSenderByPhoneNumberId(principal, rawParams.phoneNumberId ?? "");
          if (!sender) throw new ApiError("NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
        }
        const form = await readMultipart(request, {
          field: upload.field,
          maxBytes: upload.maxBytes,
          receive: (file, info) => upload.receive(verified, file, info),
        });
        cleanup = () => form.file?.discard();
        input = readFormInput(form.fields, upload.field, form.file);
      }
      if (method === "POST" && !input) {
        // A session is verified as a token is: a route's larger limit is its to use.
        const big = principal !== undefined && route.bodyLimitBytes !== undefined;
        const max = big ? (route.bodyLimitBytes as number) : env().API_BODY_LIMIT_BYTES;
        input = await readRouteBody(request, route, hasSchema, max);
      }
      if (input?.error) throw input.error;
      const bodyValue = input?.value;
      const isRecord = input !== undefined && input.record === bodyValue;
      const bodyRecord = input?.record ?? {};

      const rawQuery = Object.fromEntries(
        [...url.searchParams.entries()].filter(([k]) => !(TOKEN_FIELDS as readonly string[]).includes(k)),
      );
      assertStorableInput(rawQuery, "query");
      // An id with a NUL byte cannot exist (PostgreSQL text cannot even hold one): not found.
      for (const [key, value] of Object.entries(rawParams)) {
        if (value.includes("\u0000")) throw paramNotFound(route, key);
      }
      const rawBody = { ...bodyRecord };
      for (const k of TOKEN_FIELDS) delete rawBody[k];

      if (principal && route.sender === "resolve") {
        const requested = (typeof rawBody.senderId === "string" ? rawBody.senderId : undefined) ?? rawQuery.senderId;
        sender = await resolveSender(principal, requested || undefined, route.senderOptions);
        if (sender?.phoneNumberId) headers["X-Service-Phone-Number-Id"] = sender.phoneNumberId;
      }

      const query = route.query ? parseWith(route.query, rawQuery, "query") : undefined;
      const bodyWith = bodySchema(route, version);
      const body = bodyWith
        ? parseWith(bodyWith, bodyValue === undefined ? {} : isRecord ? rawBody : bodyValue, "body")
        : undefined;
      // After validation, as the handler's own look-up was: a malformed body is 400 whatever the path names.
      if (principal && route.sender === "phoneNumberId" && !sender) {
        sender = await resolveSenderByPhoneNumberId(principal, rawParams.phoneNumberId ?? "");
        if (!sender) throw new ApiError("NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
      }
      // The handler's type promises a sender here (SenderOf in route-definition.ts).
      if (!sender && principal && promisesSender(route)) {
        throw new Error(`sender resolution returned none for ${route.method} ${route.path}`);
      }
      // Last, where the handlers' own id checks were: a malformed body or sender answers first.
      const params = parseParams(route, rawParams);

      const context = {
        request,
        version,
        requestId,
        // Public routes never read the principal.
        principal: principal as Principal,
        sender,
        params,
        query,
        body,
      };
      const result =
        route.idempotent && principal
          ? await replayable(route, route.idempotent, context, () => route.handler(context))
          : await route.handler(context);
      if (result instanceof Response) {
        for (const [k, v] of Object.entries(headers)) result.headers.set(k, v);
        return done(headOnly(request, result));
      }
      const sent = "raw" in result ? result.raw : successBody(meta, result.message, result.data, result.extra);
      return done(headOnly(request, json(result.status ?? 200, sent, { ...headers, ...result.headers })));
    } catch (caught) {
      const error = errorAnswer(caught, { requestId });
      const context = { requestId, method: request.method, url: redactUrl(request.url) };
      if (error.unexpected) log.error({ err: caught, ...context }, "unhandled API error");
      else if (error.kind === "SERVICE_UNAVAILABLE") warnUnavailable(caught, context);
      else if (caught instanceof RequestAbortedError) log.debug(context, "the client closed the request mid-body");
      const provider = errorStyle === "provider";
      const body = provider ? providerErrorBody(meta, error) : errorBody(meta, error);
      const status = provider && !error.unexpected ? providerStatusOf(error.kind) : error.status;
      return done(headOnly(request, json(status, body, { ...headers, ...error.headers })));
    } finally {
      await cleanup?.();
    }
  }
}

function assertFeature(principal: Principal, route: AnyRoute): void {
  if (!route.feature) return;
  const planned = principal.via === "token" || principal.via === "session";
  if (!planned || !hasFeature(principal, route.feature)) {
    throw new ApiError("FEATURE_NOT_AVAILABLE", `Your plan does not include ${route.feature}`, {
      feature: route.feature,
    });
  }
}

let lastUnavailableWarning = 0;
/** While the database is down every request fails alike: one warning per 10 s says so. */
function warnUnavailable(caught: unknown, context: Record<string, unknown>): void {
  if (Date.now() - lastUnavailableWarning < 10_000) return;
  lastUnavailableWarning = Date.now();
  log.warn({ err: caught, ...context }, "the database cannot be reached: answering 503 until it can");
}

const readRouteBody = (request: Request, route: AnyRoute, hasSchema: boolean, limit: number) =>
  readJsonInput(request, { limit, hasSchema, textCheckedPerRow: route.textCheckedPerRow });

function headOnly(request: Request, response: Response): Response {
  if (request.method !== "HEAD") return response;
  // The body no one reads is cancelled: a stream (the live stream's client, a file) is let go now.
  response.body?.cancel().catch(() => {});
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * Idempotency-Key on a route flagged `idempotent` (lib/domains/idempotency/service.ts): the same
 * operation, scope (the sender and the path ids) and body replay the first answer, its
 * top-level extras (webhook create's signingSecret) included (docs/idempotency.md).
 */
async function replayable(
  route: AnyRoute,
  operation: string,
  ctx: HandlerContext<unknown, unknown>,
  run: () => Promise<RouteResult | Response>,
): Promise<RouteResult> {
  const { senderId: _s, ...input } = (ctx.body ?? {}) as Record<string, unknown>;
  // The path ids name what the request acts on (one conversation of the sender, one webhook);
  // a phone number id the sender was resolved from is that sender already, so /messages and
  // /{phoneNumberId}/messages share their keys.
  const ids = Object.entries(ctx.params)
    .filter(([name]) => !(route.sender === "phoneNumberId" && name === "phoneNumberId"))
    .map(([, value]) => value);
  const scope = [...(ctx.sender ? [ctx.sender.id] : []), ...ids].join("/");
  const r = await withIdempotency(
    ctx.principal.customerId,
    idempotencyKeyFrom(ctx.request),
    () => fingerprint(`${operation}:${scope}`, input),
    async () => {
      const out = await run();
      if (out instanceof Response) throw new Error("an idempotent route must answer with a RouteResult");
      return "raw" in out
        ? { status: out.status ?? 200, headers: out.headers ?? {}, raw: out.raw }
        : {
            status: out.status ?? 200,
            headers: out.headers ?? {},
            message: out.message,
            data: out.data,
            ...(out.extra ? { extra: out.extra } : {}),
          };
    },
  );
  const headers = { ...r.headers, ...(r.replayed ? { "Idempotent-Replayed": "true" } : {}) };
  return r.raw !== undefined
    ? { status: r.status, headers, raw: r.raw }
    : { status: r.status, headers, message: r.message ?? "", data: r.data, extra: r.extra };
}

/**
 * Each path parameter through its schema (PathText when the route declares none): a value
 * the schema refuses names nothing, so it is the parameter's not-found code, decided here
 * for every route.
 */
function parseParams(route: AnyRoute, raw: Record<string, string>): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const result = (route.params?.[key] ?? PathText).safeParse(value);
    if (!result.success) throw paramNotFound(route, key);
    parsed[key] = result.data;
  }
  return parsed;
}

const paramNotFound = (route: AnyRoute, key: string) =>
  new ApiError(route.paramNotFound?.[key] ?? "NOT_FOUND", `No such ${key}`);

/** Mirrors SenderOf (route-definition.ts): the resolutions that always yield a sender. */
const promisesSender = (route: AnyRoute) =>
  route.sender === "phoneNumberId" || (route.sender === "resolve" && route.senderOptions?.useDefault !== false);

function parseWith(schema: z.ZodType, input: unknown, where: "query" | "body"): unknown {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error, where);
}

// The public table and the routes only the dashboard's session is served (lib/api/dashboard-route-table.ts).
export const handleApiRequest = createRouter([...defaultRoutes, ...dashboardRoutes]);
