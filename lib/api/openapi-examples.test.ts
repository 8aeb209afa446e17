// Every operation of the OpenAPI document has an example request (where it has a body or
// path parameters) and an example success answer, each valid against its own schema
// (docs/openapi.md); a wrong example fails tsc (RouteExample) and this test.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { documentExampleProblems, routeExampleProblems } from "@/test/openapi-examples";
import { buildOpenApiDocument } from "./openapi";
import { ok, route } from "./route-definition";
import { routes } from "./route-table";

describe("the examples of the real table", () => {
  const doc = buildOpenApiDocument(routes);

  it("every route has an example its own zod schemas accept", () => {
    expect(routes.flatMap(routeExampleProblems)).toEqual([]);
  });

  it("every example in the document is valid against the schema beside it", () => {
    expect(documentExampleProblems(doc)).toEqual([]);
  });

  it("every operation shows a success answer, and a request where it takes a body or path ids", () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"))?.[1] as
          | { content: Record<string, { example?: unknown }> }
          | undefined;
        // A file's bytes (application/octet-stream) cannot be shown; every JSON answer is.
        const bytes = success?.content["application/octet-stream"] !== undefined;
        if (!bytes && success?.content["application/json"]?.example === undefined)
          missing.push(`${where}: success example`);
        const body = op.requestBody?.content["application/json"] ?? op.requestBody?.content["multipart/form-data"];
        if (body && body.example === undefined) missing.push(`${where}: request example`);
        for (const p of op.parameters) {
          if (p.in === "path" && p.name !== "version" && p.example === undefined) missing.push(`${where}: ${p.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("a planted wrong example", () => {
  const Thing = z.object({ name: z.string().min(1), size: z.number().int() });
  const table = [
    route({
      method: "POST",
      path: "/things/:thingId",
      params: { thingId: PublicId },
      versions: ["v3"],
      summary: "Update a thing",
      tag: "Things",
      limit: "global",
      body: z.object({ thing: Thing }),
      response: Thing,
      example: {
        params: { thingId: "th_1" },
        request: { thing: { name: "Mug", size: 2 } },
        // @ts-expect-error: a string where the schema says number (tsc refuses the example too)
        response: { name: "Mug", size: "two" },
      },
      handler: async () => ok("Updated", { name: "Mug", size: 2 }),
    }),
    route({
      method: "GET",
      path: "/things/:thingId",
      params: { thingId: PublicId },
      versions: ["v3"],
      summary: "Read a thing",
      tag: "Things",
      limit: "global",
      response: Thing,
      // Well typed, but the schema's refinement (min(1)) refuses it; and no params example.
      example: { response: { name: "", size: 2 } },
      handler: async () => ok("Thing", { name: "Mug", size: 2 }),
    }),
  ];

  it("is named by the route check and by the document check", () => {
    const problems = table.flatMap(routeExampleProblems);
    expect(problems).toContainEqual(expect.stringMatching(/^POST \/things\/:thingId example.response: size /));
    expect(problems).toContainEqual(expect.stringMatching(/^GET \/things\/:thingId example.response: name /));
    expect(problems).toContainEqual(expect.stringMatching(/^GET \/things\/:thingId: no example.params.thingId/));
    const doc = buildOpenApiDocument(table);
    expect(documentExampleProblems(doc)).toContainEqual(
      "POST /api/{version}/things/{thingId} 200: /data/size must be integer",
    );
  });

  it("a route without an example is named, with what to do", () => {
    const bare = { ...table[1], example: undefined } as (typeof table)[number];
    expect(routeExampleProblems(bare)).toEqual([
      "GET /things/:thingId: no example; add `example` to its route({...}) (docs/openapi.md)",
    ]);
  });
});
