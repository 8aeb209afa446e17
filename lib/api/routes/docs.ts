// GET /api/{v2,v3}/openapi.json: the OpenAPI 3.1 document of the whole table (public).
import { buildOpenApiDocument, type OpenApiDocument } from "../openapi";
import { type AnyRoute, route } from "../route";

let cached: Omit<OpenApiDocument, "servers"> | undefined;

export const docsRoutes: AnyRoute[] = [
  route({
    method: "GET",
    path: "/openapi.json",
    versions: ["v2", "v3"],
    summary: "This OpenAPI 3.1 document",
    tag: "Documentation",
    auth: "public",
    limit: "global",
    handler: async ({ request }) => {
      // Imported here: the table imports this file.
      const { routes } = await import("../routes");
      cached ??= buildOpenApiDocument(routes);
      const document = { ...cached, servers: [{ url: new URL(request.url).origin }] };
      return new Response(JSON.stringify(document), {
        status: 200,
        headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
      });
    },
  }),
];
