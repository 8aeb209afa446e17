// The integrator docs cover every error code (ERROR_STATUS), every event type of the catalog
// (and webhook.test) and every route of the route table; a planted omission is caught.
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { ERROR_STATUS } from "@/lib/core/errors";
import { EVENT_KEYS, TEST_EVENT_TYPE } from "@/lib/domains/webhooks/catalog";
import { type Expected, missingFromDocs, routeEntry } from "./coverage";
import { endpointProblems } from "./endpoints-table";
import { DOC_PAGES, docMarkdown, renderMarkdown } from "./pages";

const pages = Object.fromEntries(DOC_PAGES.map((p) => [p.slug, docMarkdown(p.slug)]));
const expected: Expected = {
  errorCodes: Object.keys(ERROR_STATUS),
  eventTypes: [...new Set([...EVENT_KEYS, TEST_EVENT_TYPE])],
  routes: routes.map((r) => ({ method: r.method, path: r.path })),
};

describe("integrator docs coverage", () => {
  it("has an entry for every error code, event type and route", () => {
    expect(missingFromDocs(pages, expected)).toEqual({ errorCodes: [], eventTypes: [], routes: [] });
  });

  it("fails when an entry is missing", () => {
    const route = expected.routes[0] ?? { method: "GET", path: "/" };
    const planted = {
      ...pages,
      errors: (pages.errors ?? "").replace(/^### `NOT_FOUND`$/m, ""),
      webhooks: (pages.webhooks ?? "").replaceAll("`message.status.read`", "message status read"),
      endpoints: (pages.endpoints ?? "").replaceAll(`\`${routeEntry(route)}\``, ""),
    };
    expect(missingFromDocs(planted, expected)).toEqual({
      errorCodes: ["NOT_FOUND"],
      eventTypes: ["message.status.read"],
      routes: [routeEntry(route)],
    });
  });

  it("holds the endpoints page to the route table: versions, no stale or repeated rows, three cells a row", () => {
    expect(endpointProblems(pages.endpoints ?? "", routes)).toEqual({
      stale: [],
      wrongVersions: [],
      repeated: [],
      malformed: [],
    });
  });

  it("names a stale row, a wrong versions cell, a repeated row and a split row", () => {
    const [first, second] = routes.filter((r) => r.versions.length === 2);
    if (!first || !second) throw new Error("the table has fewer than two routes on both versions");
    const row = (r: typeof first) => `| \`${routeEntry(r)}\` | v2, v3 | x |`;
    const planted = [
      row(first).replace("v2, v3", "v3"),
      row(second),
      row(second).replace("| x |", "| a | b |"),
      "| `GET /no-such-route` | v2, v3 | gone |",
      "| `GET /openapi.json` | v2, v3 | escaped \\| pipe |",
    ].join("\n");
    expect(endpointProblems(planted, routes)).toEqual({
      stale: ["GET /no-such-route"],
      wrongVersions: [`${routeEntry(first)}: v3 (route: v2, v3)`],
      repeated: [routeEntry(second)],
      malformed: [routeEntry(second)],
    });
  });

  it("renders each error code's anchor, the one an error answer's docUrl points at", () => {
    const html = renderMarkdown(pages.errors ?? "");
    for (const code of expected.errorCodes) expect(html).toContain(`id="${code.toLowerCase()}"`);
  });
});
