// GET /api/{v2,v3}/openapi.json: the OpenAPI 3.1 document of the whole table (public).
// The table is passed in (a thunk, read on the first request) rather than imported, so the
// table and this file do not import each other.
import { buildOpenApiDocument, type OpenApiDocument } from "../openapi";
import { type AnyRoute, route } from "../route-definition";

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
      handler: async ({ request }) => {
        cached ??= buildOpenApiDocument(table());
        const document = { ...cached, servers: [{ url: new URL(request.url).origin }] };
        return new Response(JSON.stringify(document), {
          status: 200,
          headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
        });
      },
    }),
  ];
}
