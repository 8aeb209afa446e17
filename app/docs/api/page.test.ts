// The reference page renders every route of the table and every error code.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { WIRE_ERROR_CODES } from "@/lib/core/errors";
import ApiReferencePage from "./page";
import { schemaRows, typeLabel } from "./schema-rows";

describe("API reference page", () => {
  it("lists every route, its parameters and the error codes, and links the document", () => {
    const html = renderToStaticMarkup(ApiReferencePage());
    expect(html).toContain('href="/api/v3/openapi.json"');
    const escaped = (text: string) =>
      text
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/'/g, "&#x27;")
        .replace(/"/g, "&quot;");
    for (const r of routes) expect(html.includes(escaped(r.summary)), r.summary).toBe(true);
    for (const code of WIRE_ERROR_CODES) expect(html.includes(code), code).toBe(true);
  });

  it("flattens nested body schemas into dotted rows", () => {
    const rows = schemaRows({
      type: "object",
      required: ["webhook"],
      properties: {
        webhook: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string", minLength: 1, description: "Name" },
            events: { type: "array", items: { type: "string" } },
            status: { type: "string", enum: ["ACTIVE", "INACTIVE"], default: "ACTIVE" },
          },
        },
      },
    });
    expect(rows).toEqual([
      { name: "webhook", type: "object", required: true, description: "" },
      { name: "webhook.name", type: "string ≥1", required: true, description: "Name" },
      { name: "webhook.events", type: "array of string", required: false, description: "" },
      { name: "webhook.status", type: "ACTIVE | INACTIVE", required: false, description: 'Default "ACTIVE".' },
    ]);
    expect(typeLabel({ type: "integer", minimum: 1, maximum: 100 })).toBe("integer 1–100");
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string or null");
  });
});
