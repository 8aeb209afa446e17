// The OpenAPI document is generated from the table: every route, every parameter, the
// envelopes, and it is served on v2 and v3 without a token.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { resetEnvCache } from "@/lib/core/env";
import { ERROR_STATUS } from "@/lib/core/errors";
import { PageQuery } from "@/lib/core/pagination";
import { PathText, PublicId } from "@/lib/core/path-params";
import { call } from "@/test/factory";
import { callWith } from "@/test/router-call";
import { buildOpenApiDocument, type OpenApiDocument, openApiPath, pathParamNames } from "./openapi";
import { ok, route } from "./route-definition";
import { routes } from "./route-table";
import { handleApiRequest } from "./router";

/** Every "$ref" in the document, with where it sits. */
function refsOf(value: unknown, at = "#"): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${at}/${i}`));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === "$ref" && typeof v === "string" ? [{ at, ref: v }] : refsOf(v, `${at}/${k}`),
  );
}

function resolve(doc: unknown, ref: string): unknown {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
      doc,
    );
}

/** The structural rules of OpenAPI 3.1 this generator can break. */
function validate(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (doc.openapi !== "3.1.0") problems.push("openapi must be 3.1.0");
  if (!doc.info?.title || !doc.info?.version) problems.push("info.title and info.version are required");
  const operationIds = new Set<string>();
  const methods = new Set(["get", "post", "put", "patch", "delete", "head", "options", "trace"]);
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith("/")) problems.push(`${path}: paths start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!methods.has(method)) problems.push(`${where}: unknown method`);
      if (operationIds.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
      operationIds.add(op.operationId);
      const pathParams = op.parameters.filter((p) => p.in === "path");
      for (const name of templated) {
        const p = pathParams.find((x) => x.name === name);
        if (!p) problems.push(`${where}: path parameter {${name}} is not declared`);
        else if (p.required !== true) problems.push(`${where}: path parameter ${name} must be required`);
      }
      for (const p of pathParams) {
        if (!templated.includes(p.name)) problems.push(`${where}: ${p.name} is not in the path`);
      }
      const keys = op.parameters.map((p) => `${p.in}:${p.name}`);
      if (new Set(keys).size !== keys.length) problems.push(`${where}: duplicate parameters`);
      if (Object.keys(op.responses).length === 0) problems.push(`${where}: no responses`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^[1-5]\d\d$/.test(status)) problems.push(`${where}: bad status ${status}`);
        if (typeof response.description !== "string") problems.push(`${where} ${status}: description required`);
      }
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement)) {
          if (!doc.components.securitySchemes[scheme]) problems.push(`${where}: unknown security scheme ${scheme}`);
        }
      }
    }
  }
  for (const { at, ref } of refsOf(doc)) {
    if (!ref.startsWith("#/")) problems.push(`${at}: external $ref ${ref}`);
    else if (resolve(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  }
  return problems;
}

describe("the document of the real table", () => {
  const doc = buildOpenApiDocument(routes);

  it("is structurally valid OpenAPI 3.1", () => {
    expect(validate(doc)).toEqual([]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
  });

  it("names each operation's token permission and its 403 TOKEN_PERMISSION_DENIED (docs/tokens.md)", () => {
    for (const r of routes.filter((route) => route.auth !== "public")) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      expect(op?.["x-token-permission"], `${r.method} ${r.path}`).toBe(r.permission);
      expect(op?.description, `${r.method} ${r.path}`).toContain(`\`${r.permission}\` permission`);
      expect(JSON.stringify(op?.responses["403"]), `${r.method} ${r.path}`).toContain("TOKEN_PERMISSION_DENIED");
    }
  });

  it("has every route of the table, on exactly its versions", () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      if (!op) continue;
      const version = op.parameters.find((p) => p.name === "version");
      expect(version?.schema.enum).toEqual(expect.arrayContaining([...r.versions]));
      for (const name of pathParamNames(r.path)) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: "path", required: true }));
      }
      expect(op.security).toEqual(r.auth === "public" ? [] : [{ bearerAuth: [] }]);
      // An upload's body is its form (multipart/form-data); every other body is JSON.
      const bodyType = r.upload ? "multipart/form-data" : "application/json";
      if (r.body) expect(op.requestBody?.content[bodyType]?.schema).toBeDefined();
    }
  });

  it("types every success answer: no empty schema, no object without properties", () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          walk(n, `${at}/${i}`);
        });
        return;
      }
      const schema = node as Record<string, unknown>;
      if (/\/(properties\/[^/]+|items|data)$/.test(at) && Object.keys(schema).length === 0) untyped.push(at);
      const open = schema.type === "object" && !schema.properties && !schema.additionalProperties;
      if (open && !/\/(details|error_data)$/.test(at)) untyped.push(`${at} (object without properties)`);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"))?.[1] as
          | { content: Record<string, { schema: unknown }> }
          | undefined;
        walk(success?.content["application/json"]?.schema, `${method.toUpperCase()} ${path}`);
      }
    }
    expect(untyped).toEqual([]);
  });

  it("declares Idempotency-Key on every operation that honours it, and the headers its answers carry", () => {
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      const header = op?.parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
      expect(Boolean(header), `${r.method} ${r.path}`).toBe(Boolean(r.idempotent));
      const success = op?.responses[String(r.successStatus ?? 200)] as { headers: Record<string, unknown> };
      if (r.idempotent) expect(success.headers, r.path).toHaveProperty("Idempotent-Replayed");
      for (const name of r.responseHeaders ?? []) expect(success.headers, r.path).toHaveProperty(name);
      const limited = op?.responses["429"] as { headers: Record<string, unknown> };
      for (const name of ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
        expect(limited.headers, r.path).toHaveProperty(name);
      }
    }
    const send = doc.paths["/api/{version}/send"]?.post?.responses["200"] as { headers: Record<string, unknown> };
    expect(send.headers).toHaveProperty("X-Service-Message-Id");
    expect(send.headers).toHaveProperty("X-Service-Queued");
  });

  it("offers v3 first and as the default version of every path that has it", () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) {
        const version = op.parameters.find((p) => p.name === "version")?.schema as { enum: string[]; default: string };
        if (version.enum.includes("v3"))
          expect({ path, ...version }).toMatchObject({ path, default: "v3", enum: ["v3", ...version.enum.slice(1)] });
      }
    }
  });

  it("leaves every answer open to added fields (no additionalProperties: false outside request bodies)", () => {
    const closed: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) walk(v, `${at}/${i}`);
        return;
      }
      if (!value || typeof value !== "object") return;
      for (const [k, v] of Object.entries(value)) {
        if (k === "requestBody") continue;
        if (k === "additionalProperties" && v === false) closed.push(at);
        walk(v, `${at}/${k}`);
      }
    };
    walk(doc.paths, "#/paths");
    // Component schemas are shared by answers; request bodies are inlined under requestBody.
    walk(doc.components.schemas, "#/components/schemas");
    expect(closed).toEqual([]);
  });

  it("names every operation shortly for the reference sidebar, the detail in its description", () => {
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      const at = `${r.method} ${r.path}: ${op?.summary}`;
      expect(op?.summary.length, at).toBeLessThanOrEqual(45);
      // Detail (filters, limits, parentheses, a second clause) belongs in the description.
      expect(op?.summary, at).toMatch(/^[A-Z][^();:]*[^.;:]$/);
      if (r.description) expect(op?.description, at).toContain(r.description);
    }
  });

  it("names a component schema for every resource it answers, referenced where it is answered", () => {
    const resources = [
      "Webhook",
      "WebhookDelivery",
      "WebhookRecovery",
      "EventCatalog",
      "BillingRecord",
      "LedgerTransaction",
      "ContactBook",
      "Contact",
      "ContactField",
      "BlacklistEntry",
      "Conversation",
      "Message",
      "Chatbot",
      "Template",
      "Sender",
      "Order",
      "SendReceipt",
      "MessageReportRow",
      "AuditEvent",
      "Broadcast",
      "BroadcastRecipient",
      "ConversationNote",
    ];
    for (const name of resources) {
      expect(doc.components.schemas[name], name).toMatchObject({ type: "object" });
      expect(JSON.stringify(doc.paths), name).toContain(`"#/components/schemas/${name}"`);
    }
    const dataOf = (path: string, method: string) =>
      (
        doc.paths[path]?.[method]?.responses["200"] as
          | { content: Record<string, { schema: { properties: { data: Record<string, unknown> } } }> }
          | undefined
      )?.content["application/json"]?.schema.properties.data;
    expect(dataOf("/api/{version}/webhooks/{webhookUid}", "get")).toEqual({ $ref: "#/components/schemas/Webhook" });
    expect(dataOf("/api/{version}/webhooks", "get")).toMatchObject({
      properties: { webhooks: { type: "array", items: { $ref: "#/components/schemas/Webhook" } } },
    });
    // No resource shape left inline: every object with a createdAt under paths is a component.
    const inline: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== "object") return;
      for (const [k, v] of Object.entries(value)) {
        if (k === "example" || k === "examples") continue;
        if (k === "properties" && v && typeof v === "object" && "createdAt" in v) inline.push(at);
        walk(v, `${at}/${k}`);
      }
    };
    walk(doc.paths, "#/paths");
    expect(inline).toEqual([]);
  });

  it("marks every timestamp of an answer as format: date-time", () => {
    const untyped: string[] = [];
    const isDateTime = (schema: Record<string, unknown>): boolean =>
      schema.format === "date-time" ||
      (Array.isArray(schema.anyOf) &&
        (schema.anyOf as Record<string, unknown>[]).some((s) => s.format === "date-time"));
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== "object") return;
      for (const [k, v] of Object.entries(value)) {
        if (k === "requestBody" || k === "parameters" || k === "example") continue;
        if (k === "properties" && v && typeof v === "object") {
          for (const [name, schema] of Object.entries(v as Record<string, Record<string, unknown>>)) {
            if (/(At|Timestamp|Since|Until)$|^(timestamp|since|until)$/.test(name) && !isDateTime(schema))
              untyped.push(`${at}/${name}`);
          }
        }
        walk(v, `${at}/${k}`);
      }
    };
    walk(doc.paths, "#/paths");
    walk(doc.components.schemas, "#/components/schemas");
    expect(untyped).toEqual([]);
    expect(doc.components.schemas.Webhook).toMatchObject({
      properties: { createdAt: { type: "string", format: "date-time" } },
    });
  });

  it("describes the success and error envelopes, with every error code", () => {
    const error = doc.components.schemas.ErrorEnvelope as { properties: { error_code: { enum: string[] } } };
    const codes = error.properties.error_code.enum;
    expect(codes).toContain("REQUEST_FAILED");
    expect(codes).toContain("MISSING_AUTH_TOKEN");
    // 405 and 429 travel as REQUEST_FAILED (the contract's code when none specific applies);
    // the body limit and the cross-origin refusal carry their own.
    for (const code of ["PAYLOAD_TOO_LARGE", "CROSS_ORIGIN_REQUEST"]) expect(codes).toContain(code);
    for (const code of ["RATE_LIMITED", "METHOD_NOT_ALLOWED"]) expect(codes).not.toContain(code);
    expect(codes.length).toBe(Object.keys(ERROR_STATUS).length - 2);
    const openapi = doc.paths["/api/{version}/openapi.json"]?.get;
    expect(openapi?.responses["200"]).toBeDefined();
    expect(openapi?.responses["429"]).toBeDefined();
  });
});

describe("generation from zod schemas", () => {
  const table = [
    route({
      method: "GET",
      path: "/things/:thingId/parts/:partId",
      params: { thingId: PublicId.describe("The thing's uid"), partId: PathText },
      versions: ["v3"],
      summary: "List parts",
      tag: "Things",
      tokenScope: "global",
      limit: "global",
      query: PageQuery.extend({
        status: z.enum(["ACTIVE", "INACTIVE"]).optional().describe("Filter by status"),
        search: z.string().describe("Required search term"),
      }),
      response: z.object({ parts: z.array(z.object({ uid: z.string() })) }),
      handler: async () => ok("Parts", { parts: [] }),
    }),
    route({
      method: "POST",
      path: "/things",
      versions: ["v2", "v3"],
      summary: "Create a thing",
      tag: "Things",
      limit: "send",
      body: z.object({ thing: z.object({ name: z.string().min(1), size: z.number().int().default(3) }) }),
      handler: async () => ok("Created", {}),
    }),
  ];
  const doc = buildOpenApiDocument(table);

  it("takes parameters from the path and the query schema", () => {
    expect(validate(doc)).toEqual([]);
    const op = doc.paths["/api/{version}/things/{thingId}/parts/{partId}"]?.get;
    expect(op?.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      "path:version:true",
      "path:thingId:true",
      "path:partId:true",
      "query:page:false",
      "query:limit:false",
      "query:status:false",
      "query:search:true",
    ]);
    expect(op?.parameters.find((p) => p.name === "version")?.schema).toEqual({
      type: "string",
      enum: ["v3"],
      default: "v3",
    });
    // A path parameter is described by the route's own schema of it.
    expect(op?.parameters.find((p) => p.name === "thingId")).toMatchObject({
      description: "The thing's uid",
      schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
    });
    expect(op?.parameters.find((p) => p.name === "partId")?.schema).toMatchObject({ type: "string", minLength: 1 });
    expect(op?.parameters.find((p) => p.name === "limit")?.schema.type).toBe("integer");
    expect(op?.parameters.find((p) => p.name === "status")).toMatchObject({
      description: "Filter by status",
      schema: { type: "string", enum: ["ACTIVE", "INACTIVE"] },
    });
    expect(op?.description).toContain("global token");
    expect(op?.["x-token-scope"]).toBe("global");
    const success = op?.responses["200"] as
      | { content: Record<string, { schema: { properties: { data: unknown } } }> }
      | undefined;
    const data = success?.content["application/json"]?.schema.properties.data;
    expect(data).toMatchObject({ type: "object", properties: { parts: { type: "array" } } });
  });

  it("takes the request body from the body schema, as input (defaults optional)", () => {
    const op = doc.paths["/api/{version}/things"]?.post;
    const schema = op?.requestBody?.content["application/json"]?.schema as {
      properties: { thing: { required: string[]; properties: Record<string, unknown> } };
    };
    expect(schema.properties.thing.required).toEqual(["name"]);
    expect(schema.properties.thing.properties.name).toMatchObject({ type: "string", minLength: 1 });
    // Only what the route can answer: no path parameter and no sender, so no 404; never a 405;
    // a 503 while the database cannot be reached, as any route.
    expect(Object.keys(op?.responses ?? {})).toEqual(["200", "400", "401", "403", "413", "415", "429", "500", "503"]);
    const parts = doc.paths["/api/{version}/things/{thingId}/parts/{partId}"]?.get;
    expect(Object.keys(parts?.responses ?? {})).toEqual(["200", "400", "401", "403", "404", "429", "500", "503"]);
  });
});

describe("named component schemas (.meta({ id }))", () => {
  const Thing = z.object({ uid: z.string() }).meta({ id: "Thing" });
  const answering = (response: z.ZodType) =>
    route({
      method: "GET",
      path: "/things",
      versions: ["v3"],
      summary: "List things",
      tag: "Things",
      limit: "global",
      response,
      handler: async () => ok("Things", {}),
    });

  it("become components.schemas entries, referenced and open to added fields", () => {
    const doc = buildOpenApiDocument([answering(z.object({ things: z.array(Thing) }))]);
    expect(doc.components.schemas.Thing).toEqual({
      type: "object",
      properties: { uid: { type: "string" } },
      required: ["uid"],
    });
    expect(JSON.stringify(doc.paths)).toContain('"items":{"$ref":"#/components/schemas/Thing"}');
  });

  it("refuse one id for two shapes (read as input and as output, or two schemas)", () => {
    // A default makes a field optional as input and present as output: two shapes.
    const Sized = z.object({ uid: z.string(), size: z.number().default(3) }).meta({ id: "Thing" });
    const both = route({
      method: "POST",
      path: "/things",
      versions: ["v3"],
      summary: "Create a thing",
      tag: "Things",
      limit: "global",
      body: z.object({ thing: Sized }),
      response: Sized,
      handler: async () => ok("Created", {}),
    });
    expect(() => buildOpenApiDocument([both])).toThrow(/"Thing" has two different shapes/);
    const other = z.object({ name: z.string() }).meta({ id: "Thing" });
    expect(() => buildOpenApiDocument([answering(Thing), { ...answering(other), path: "/others" }])).toThrow(
      /two different shapes/,
    );
  });
});

describe("GET /api/{v2,v3}/openapi.json", () => {
  it("is public, served on both versions, and the same document", async () => {
    const v3 = await call("GET", "/api/v3/openapi.json");
    const v2 = await call("GET", "/api/v2/openapi.json");
    expect(v3.status).toBe(200);
    expect(v2.status).toBe(200);
    expect(v3.headers.get("content-type")).toMatch(/^application\/json/);
    expect(v3.headers.get("x-service-request-id")).toMatch(/^req_/);
    expect(v3.headers.get("ratelimit-limit")).not.toBeNull();
    expect(v3.body.openapi).toBe("3.1.0");
    // No public URL configured: relative to where the document was fetched.
    expect(v3.body.servers).toEqual([{ url: "/" }]);
    expect(v2.body).toEqual(v3.body);
    expect(validate(v3.body)).toEqual([]);
    expect(Object.keys(v3.body.paths)).toContain("/api/{version}/openapi.json");
  });
});

describe("servers[] of the OpenAPI document", () => {
  afterEach(() => {
    delete process.env.PUBLIC_URL;
    delete process.env.NEXTAUTH_URL;
    resetEnvCache();
  });

  it("comes from the configured public URL, never the request's Host header (the document is cached publicly)", async () => {
    const forged = { headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" } };
    const bare = await callWith(handleApiRequest, "GET", "http://evil.example/api/v3/openapi.json", forged);
    expect(JSON.stringify(bare.body.servers)).not.toContain("evil.example");
    // The dashboard's URL (npm start sets it to localhost) is not the API's: still relative.
    process.env.NEXTAUTH_URL = "http://localhost:3000/";
    resetEnvCache();
    const viaAuth = await callWith(handleApiRequest, "GET", "http://evil.example/api/v3/openapi.json", forged);
    expect(viaAuth.body.servers).toEqual([{ url: "/" }]);
    process.env.PUBLIC_URL = "https://api.example.com";
    resetEnvCache();
    const viaPublic = await callWith(handleApiRequest, "GET", "http://evil.example/api/v2/openapi.json", forged);
    expect(viaPublic.body.servers).toEqual([{ url: "https://api.example.com" }]);
  });
});
