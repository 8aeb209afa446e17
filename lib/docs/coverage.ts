// What the integrator docs (docs/integrators/*.md) must cover, and what they miss:
// every error code has its own heading in the error reference (the anchor of an error
// answer's docUrl), every event type a row in the receivers' guide, every route a row in
// the endpoints page. lib/docs/coverage.test.ts runs it over the real lists.
import { headingId } from "./pages";

export type Expected = {
  errorCodes: readonly string[];
  eventTypes: readonly string[];
  routes: readonly { method: string; path: string }[];
};

export type Missing = { errorCodes: string[]; eventTypes: string[]; routes: string[] };

/** The anchors of a Markdown text's headings. */
export const headingIds = (markdown: string): Set<string> =>
  new Set([...markdown.matchAll(/^#{1,6}[ \t]+(.+)$/gm)].map((m) => headingId(m[1] ?? "")));

/** A route as the docs write it: "GET /webhooks/{webhookUid}" for the table's "/webhooks/:webhookUid". */
export const routeEntry = (r: { method: string; path: string }): string =>
  `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`;

/** Each expected entry the pages lack (pages: Markdown by slug). */
export function missingFromDocs(pages: Record<string, string>, expected: Expected): Missing {
  const anchors = headingIds(pages.errors ?? "");
  const webhooks = pages.webhooks ?? "";
  const endpoints = pages.endpoints ?? "";
  return {
    errorCodes: expected.errorCodes.filter((code) => !anchors.has(code.toLowerCase())),
    eventTypes: expected.eventTypes.filter((type) => !webhooks.includes(`\`${type}\``)),
    routes: expected.routes.map(routeEntry).filter((entry) => !endpoints.includes(`\`${entry}\``)),
  };
}
