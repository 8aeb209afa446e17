// GET /api/{v2,v3}/openapi.json: the OpenAPI 3.1 document of the whole table (public).
// The table is passed in (a thunk, read on the first request) rather than imported, so the
// table and this file do not import each other.
import { z } from "zod";
import { env } from "@/lib/core/env";
import { buildOpenApiDocument, type OpenApiDocument } from "../openapi";
import { type AnyRoute, route } from "../route-definition";

/**
 * The configured public address (PUBLIC_URL, else NEXTAUTH_URL), never the request's Host
 * header: the document is cached publicly, so a forged Host would be served to others.
 * Unconfigured, "/" (OpenAPI: relative to where the document was fetched).
 */
export function publicServerUrl(): string {
  // Not NEXTAUTH_URL: npm start sets it to http://localhost:$PORT, which would bake localhost
  // into generated clients and break "try it" from any other host. Relative works from anywhere.
  const { PUBLIC_URL } = env();
  return PUBLIC_URL ? PUBLIC_URL.replace(/\/+$/, "") : "/";
}

/** The parts of the document a client reads first (the whole is OpenAPI 3.1's own schema). */
const OpenApiDocumentShape = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({}),
});

export function docsRoutes(table: () => readonly AnyRoute[]): AnyRoute[] {
  let cached: Omit<OpenApiDocument, "servers"> | undefined;
  return [
    route({
      method: "GET",
      path: "/openapi.json",
      versions: ["v2", "v3"],
      summary: "This OpenAPI 3.1 document",
      tag: "Documentation",
      auth: "public",
      limit: "global",
      response: OpenApiDocumentShape,
      example: {
        response: {
          openapi: "3.1.0",
          info: { title: "Switchboard public API", version: "3.0.0" },
          servers: [{ url: "https://api.switchboard.example" }],
          paths: { "/api/{version}/webhooks": { get: { operationId: "getWebhooks" } } },
          components: { schemas: {} },
        },
      },
      handler: async () => {
        cached ??= buildOpenApiDocument(table());
        const document = { ...cached, servers: [{ url: publicServerUrl() }] };
        return new Response(JSON.stringify(document), {
          status: 200,
          headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
        });
      },
    }),
  ];
}
