// The provider-compatible mount (docs/messaging.md "Provider SDKs"). Stock provider SDKs call
// `{base}/{graphVersion}/{phoneNumberId}/messages`, `{phoneNumberId}/media` (uploads),
// `GET {base}/{graphVersion}/{phoneNumberId}` and `GET` or `DELETE /{mediaId}` (docs/media.md)
// with the provider's own version segment (v23.0, v24.0, ...). Under /graph the service takes
// any such version and answers from v3's provider-compatible routes, so an SDK works with only
// its base URL changed (`http://host/graph`). Nothing else of the API is reachable there.
import { handleApiRequest } from "./router";

export const GRAPH_PREFIX = "/graph/";

const GRAPH_PATH = /^\/graph\/v\d{1,3}\.\d{1,3}(\/[^/]+(?:\/messages|\/media)?)\/?$/;

/** The /api/v3 path a /graph path stands for, or null when it is none of the provider's routes. */
export function graphToApiPath(pathname: string): string | null {
  const m = GRAPH_PATH.exec(pathname);
  return m?.[1] ? `/api/v3${m[1]}` : null;
}

/** Answers a /graph request from the v3 router, or the provider's error for a path it does not serve. */
export function handleGraphRequest(request: Request, options: { clientIp: string }): Promise<Response> {
  const url = new URL(request.url);
  const path = graphToApiPath(url.pathname);
  if (!path) {
    return Promise.resolve(
      Response.json(
        {
          error: {
            message: `Unsupported ${request.method} request: under /graph this service serves /{version}/{phoneNumberId}, /{version}/{phoneNumberId}/messages, /{version}/{phoneNumberId}/media and /{version}/{mediaId}`,
            type: "GraphMethodException",
            code: 100,
            error_subcode: 33,
          },
        },
        { status: 400 },
      ),
    );
  }
  url.pathname = path;
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return handleApiRequest(new Request(url, init), options);
}
