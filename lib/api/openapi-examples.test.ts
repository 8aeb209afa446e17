// Every operation of the OpenAPI document has an example request (where it has a body or
// path parameters) and an example success answer, each valid against its own schema
// (docs/openapi.md); a wrong example fails tsc (RouteExample) and this test.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { InteractiveButton } from "@/lib/domains/conversations/interactive-buttons";
import {
  Interactive,
  InteractiveCtaUrl,
  InteractiveHeader,
  InteractiveList,
} from "@/lib/domains/messaging/interactive";
import { ReactionField } from "@/lib/domains/messaging/schemas";
import { componentExampleProblems, documentExampleProblems, routeExampleProblems } from "@/test/openapi-examples";
import { buildOpenApiDocument } from "./openapi";
import { ok, route } from "./route-definition";
import { routes } from "./route-table";

describe("the examples of the real table", () => {
  const doc = buildOpenApiDocument(routes);

  it("every route has an example its own zod schemas accept", () => {
    expect(routes.flatMap(routeExampleProblems)).toEqual([]);
  });

  // Ajv compiles every schema of the document: 23-31 s on a loaded machine, past the default 30 s.
  it("every example in the document is valid against the schema beside it", () => {
    expect(documentExampleProblems(doc)).toEqual([]);
  }, 120_000);

  it("the named schemas of interactive messages and reactions each show examples their own zod schema accepts", () => {
    // docs/messaging.md "Buttons, lists and links" and "Reactions": the components an integrator builds a send from.
    const named: Record<string, z.ZodType> = {
      Interactive,
      InteractiveHeader,
      InteractiveButton,
      InteractiveList,
      InteractiveCtaUrl,
      ReactionSend: ReactionField,
    };
    expect(componentExampleProblems(doc)).toEqual([]);
    for (const [name, schema] of Object.entries(named)) {
      const examples = (doc.components.schemas[name] as { examples?: unknown[] } | undefined)?.examples;
      expect(examples?.length ?? 0, `${name} has no example`).toBeGreaterThan(0);
      for (const example of examples ?? []) {
        const result = schema.safeParse(example);
        expect(result.error?.issues ?? [], `${name}: ${JSON.stringify(example)}`).toEqual([]);
      }
    }
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

  it("a named schema's wrong example is named by the component check", () => {
    const Size = z
      .object({ size: z.number().int() })
      .meta({ id: "PlantedSize", examples: [{ size: 2 }, { size: "two" }] });
    const sized = route({
      method: "GET",
      path: "/sizes",
      versions: ["v3"],
      summary: "Read a size",
      tag: "Things",
      limit: "global",
      response: Size,
      example: { response: { size: 2 } },
      handler: async () => ok("Size", { size: 2 }),
    });
    expect(componentExampleProblems(buildOpenApiDocument([sized]))).toEqual([
      "component PlantedSize example 1: /size must be integer",
    ]);
  });

  it("a route without an example is named, with what to do", () => {
    const bare = { ...table[1], example: undefined } as (typeof table)[number];
    expect(routeExampleProblems(bare)).toEqual([
      "GET /things/:thingId: no example; add `example` to its route({...}) (docs/openapi.md)",
    ]);
  });
});
