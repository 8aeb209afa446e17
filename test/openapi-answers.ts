// Validates real answers against the OpenAPI document (lib/api/openapi.ts): the response
// schema of the operation (method, path template) and status, with Ajv's JSON Schema
// 2020-12 dialect (OpenAPI 3.1's).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { OpenApiDocument } from "@/lib/api/openapi";

export type Answer = { method: string; path: string; status: number; body: unknown };

/**
 * "/api/v3/webhooks/abc" → the document's path key "/api/{version}/webhooks/{webhookUid}", when
 * that operation exists on that version (a v3-only path under /api/v2 is no operation).
 */
export function templateOf(doc: OpenApiDocument, method: string, path: string): string | undefined {
  const concrete = new URL(path, "http://localhost").pathname.split("/").filter(Boolean);
  const version = concrete[1] ?? "";
  const candidates = Object.keys(doc.paths).filter((key) =>
    doc.paths[key]?.[method.toLowerCase()]?.["x-versions"].includes(version),
  );
  // Literal segments beat parameters (/webhooks/events before /webhooks/{webhookUid}).
  const score = (key: string) => key.split("/").filter((s) => !s.startsWith("{")).length;
  // A parameter the router matches by its form (x-path-match) must have that form: DELETE
  // /api/v2/webhooks is no operation, not DELETE /api/{version}/{id}'s.
  const formOk = (key: string, name: string, value: string) => {
    const param = doc.paths[key]?.[method.toLowerCase()]?.parameters?.find((p) => p.in === "path" && p.name === name);
    const form = param?.["x-path-match"];
    return !form || new RegExp(form).test(decodeURIComponent(value));
  };
  return candidates
    .filter((key) => {
      const parts = key.split("/").filter(Boolean);
      return (
        parts.length === concrete.length &&
        parts.every((p, i) => (p.startsWith("{") ? formOk(key, p.slice(1, -1), concrete[i] ?? "") : p === concrete[i]))
      );
    })
    .sort((a, b) => score(b) - score(a))[0];
}

/** Per operation ("GET /api/{version}/webhooks"): whether some answer was a success (2xx), some an error (4xx/5xx). */
export type Coverage = Record<string, { success: boolean; error: boolean }>;

/** What these answers cover; answers that are no operation of the document (a wrong method, an unknown path) cover nothing. */
export function coverageOf(doc: OpenApiDocument, answers: readonly Answer[]): Coverage {
  const seen: Coverage = {};
  for (const a of answers) {
    const template = templateOf(doc, a.method, a.path);
    if (!template) continue;
    const key = `${a.method.toUpperCase()} ${template}`;
    const entry = seen[key] ?? { success: false, error: false };
    if (a.status >= 200 && a.status < 300) entry.success = true;
    if (a.status >= 400) entry.error = true;
    seen[key] = entry;
  }
  return seen;
}

/**
 * What the coverages lack together (one per test file that recorded answers): per operation
 * of the document, a line naming it when no answer was a success or none an error.
 */
export function missingCoverage(doc: OpenApiDocument, coverages: readonly Coverage[]): string[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.keys(item).flatMap((method) => {
      const key = `${method.toUpperCase()} ${template}`;
      const success = coverages.some((c) => c[key]?.success);
      const error = coverages.some((c) => c[key]?.error);
      const lacks = [success ? "" : "no success answer", error ? "" : "no error answer"].filter(Boolean);
      return lacks.length ? [`${key}: ${lacks.join(", ")}`] : [];
    }),
  );
}

/** What one set of answers lacks (missingCoverage of its coverage alone). */
export const missingAnswers = (doc: OpenApiDocument, answers: readonly Answer[]) =>
  missingCoverage(doc, [coverageOf(doc, answers)]);

export function answerValidator(doc: OpenApiDocument) {
  // Formats checked too: a timestamp documented as date-time must be one.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (answer: Answer): string[] => {
    const template = templateOf(doc, answer.method, answer.path);
    if (!template) return [`${answer.method} ${answer.path}: no operation in the document`];
    const op = doc.paths[template]?.[answer.method.toLowerCase()];
    const response = op?.responses[String(answer.status)] as
      | { content?: { "application/json"?: { schema?: object }; "application/octet-stream"?: object } }
      | undefined;
    const where = `${answer.method} ${template} ${answer.status}`;
    if (!response) return [`${where}: status not documented`];
    // A file's bytes (a file route's 200 and 206) and a 304 have no JSON to check.
    if (answer.status === 304 || (response.content?.["application/octet-stream"] && Buffer.isBuffer(answer.body))) {
      return [];
    }
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return [`${where}: no schema`];
    let validate = compiled.get(where);
    if (!validate) {
      // The component schemas travel with each schema so that "#/components/..." resolves.
      validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
      compiled.set(where, validate);
    }
    if (validate(answer.body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || "/"} ${e.message}`);
  };
}
