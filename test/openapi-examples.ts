// Checks the examples of the OpenAPI document (docs/openapi.md): each route's example
// against its zod schemas (refinements included), and each example of the document against
// the JSON Schema beside it (Ajv, JSON Schema 2020-12, OpenAPI 3.1's dialect), a named
// schema's own examples included.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { z } from "zod";
import type { OpenApiDocument } from "@/lib/api/openapi";
import { pathParamNames } from "@/lib/api/openapi";
import { type AnyRoute, bodySchema } from "@/lib/api/route-definition";

const zodIssues = (
  where: string,
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
) =>
  result.success
    ? []
    : (result.error?.issues ?? []).map((i) => `${where}: ${i.path.map(String).join(".")} ${i.message}`);

/** What a route's example lacks or gets wrong, by its own zod schemas. */
export function routeExampleProblems(route: AnyRoute): string[] {
  const name = `${route.method} ${route.path}`;
  const example = route.example;
  const fix = "add `example` to its route({...}) (docs/openapi.md)";
  if (!example) return [`${name}: no example; ${fix}`];
  const problems: string[] = [];
  // A file route answers bytes: there is no JSON answer to show.
  if (route.fileAnswer) {
    if (example.response !== undefined) problems.push(`${name}: a file route's example has no response`);
  } else if (!route.response) problems.push(`${name}: no response schema to check the example answer against`);
  else problems.push(...zodIssues(`${name} example.response`, route.response.safeParse(example.response)));
  for (const param of pathParamNames(route.path)) {
    if (!example.params?.[param]) problems.push(`${name}: no example.params.${param}; ${fix}`);
  }
  for (const version of route.versions) {
    const body = bodySchema(route, version);
    if (!body) continue;
    if (route.upload) {
      // An upload's example shows its text fields; the file part cannot be shown.
      if (example.form === undefined) problems.push(`${name}: no example.form; ${fix}`);
      else {
        const shape = { ...(body as z.ZodObject).shape };
        delete shape[route.upload.field];
        const fields = z.object(shape);
        problems.push(...zodIssues(`${name} example.form (${version})`, fields.safeParse(example.form)));
      }
      break;
    }
    if (example.request === undefined) {
      problems.push(`${name}: no example.request; ${fix}`);
      break;
    }
    problems.push(...zodIssues(`${name} example.request (${version})`, body.safeParse(example.request)));
  }
  if (example.query !== undefined && route.query) {
    problems.push(...zodIssues(`${name} example.query`, route.query.safeParse(example.query)));
  }
  return problems;
}

type Media = { schema?: object; example?: unknown };

/** Every example of the document that its own schema refuses. */
export function documentExampleProblems(doc: OpenApiDocument): string[] {
  // Formats checked too: a timestamp documented as date-time must be one.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const problems: string[] = [];
  const check = (where: string, schema: object | undefined, example: unknown) => {
    if (example === undefined || !schema) return;
    const validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
    if (!validate(example)) {
      for (const e of validate.errors ?? []) problems.push(`${where}: ${e.instancePath || "/"} ${e.message}`);
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters) check(`${where} parameter ${p.name}`, p.schema, p.example);
      const body = op.requestBody?.content["application/json"];
      check(`${where} request`, body?.schema, body?.example);
      for (const [status, response] of Object.entries(op.responses)) {
        const media = (response as { content?: Record<string, Media> }).content?.["application/json"];
        check(`${where} ${status}`, media?.schema, media?.example);
      }
    }
  }
  return problems;
}

/** Every example of a named schema (`.meta({ id, examples })`) that its component refuses. */
export function componentExampleProblems(doc: OpenApiDocument): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The components are compiled once, under one id, and each named schema taken from them.
  const base = "https://switchboard.invalid/components";
  ajv.addSchema({ components: doc.components }, base);
  const problems: string[] = [];
  for (const [name, component] of Object.entries(doc.components.schemas)) {
    const examples = (component as { examples?: unknown }).examples;
    if (examples === undefined) continue;
    if (!Array.isArray(examples)) {
      problems.push(`component ${name}: examples must be a list`);
      continue;
    }
    const validate = ajv.getSchema(`${base}#/components/schemas/${name}`);
    examples.forEach((example, i) => {
      if (validate && !validate(example)) {
        for (const e of validate.errors ?? [])
          problems.push(`component ${name} example ${i}: ${e.instancePath || "/"} ${e.message}`);
      }
    });
  }
  return problems;
}
