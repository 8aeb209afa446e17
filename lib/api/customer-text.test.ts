// What customers read (the OpenAPI reference, the webhook event catalog) never cites the
// repository's own files: a customer has no "docs/conversations.md" or "lib/..." to open.
import { describe, expect, it } from "vitest";
import { EVENT_GROUPS } from "@/lib/domains/webhooks/catalog";
import { buildOpenApiDocument } from "./openapi";
import { routes } from "./route-table";

const REPOSITORY_PATH = /\b(docs|lib|app|components|prisma|test)\/[\w./-]+\.(md|ts|tsx|prisma)\b/;

/** Every string in a JSON value, with where it is. */
function* stringsOf(value: unknown, at = "$"): Generator<[string, string]> {
  if (typeof value === "string") yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringsOf(v, `${at}[${i}]`);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* stringsOf(v, `${at}.${k}`);
}

describe("customer-facing text", () => {
  it("the OpenAPI document cites no repository file", () => {
    const cited = [...stringsOf(buildOpenApiDocument(routes))].filter(([, s]) => REPOSITORY_PATH.test(s));
    expect(cited).toEqual([]);
  });

  it("the webhook event catalog cites no repository file", () => {
    const cited = [...stringsOf(EVENT_GROUPS)].filter(([, s]) => REPOSITORY_PATH.test(s));
    expect(cited).toEqual([]);
  });
});
