// Validates delivered webhook bodies against the OpenAPI document's `webhooks` section (the
// POST the service makes per event type, lib/api/openapi-webhooks.ts) with Ajv's JSON Schema
// 2020-12 dialect, and names what a set of real deliveries lacks: a catalog type never
// delivered, a body that does not fit its schema, a signature the receiver did not verify.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { OpenApiDocument } from "@/lib/api/openapi";

/** One delivery as a receiver saw it: the parsed body and whether its signature verified. */
export type Delivered = { body: unknown; verified: boolean };

const typeOf = (body: unknown) =>
  body && typeof body === "object" && typeof (body as { type?: unknown }).type === "string"
    ? (body as { type: string }).type
    : undefined;

/** The body schema the document gives an event type, or undefined when it has none. */
export function eventSchemaOf(doc: Pick<OpenApiDocument, "webhooks">, type: string): object | undefined {
  return doc.webhooks[type]?.post.requestBody.content["application/json"].schema;
}

/** A validator of delivered bodies: the problems of one body, [] when it fits its type's schema. */
export function eventValidator(doc: Pick<OpenApiDocument, "webhooks" | "components">) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (body: unknown): string[] => {
    const type = typeOf(body);
    if (!type) return ["a delivered body without a type"];
    const schema = eventSchemaOf(doc, type);
    if (!schema) return [`${type}: no entry in the document's webhooks`];
    let validate = compiled.get(type);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
      compiled.set(type, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${type}: ${e.instancePath || "/"} ${e.message}`);
  };
}

/**
 * What these deliveries lack against the catalog: every catalog type needs a verified
 * delivery and an entry in the document's webhooks; every delivery must be verified and fit
 * its type's schema. [] when nothing is missing.
 */
export function deliveryProblems(
  doc: Pick<OpenApiDocument, "webhooks" | "components">,
  catalogTypes: readonly string[],
  delivered: readonly Delivered[],
): string[] {
  const validate = eventValidator(doc);
  const problems: string[] = [];
  const verifiedTypes = new Set(delivered.filter((d) => d.verified).map((d) => typeOf(d.body)));
  for (const type of catalogTypes) {
    if (!eventSchemaOf(doc, type)) problems.push(`${type}: no entry in the document's webhooks`);
    if (!verifiedTypes.has(type)) problems.push(`${type}: no verified real delivery`);
  }
  for (const d of delivered) {
    if (!d.verified) problems.push(`${typeOf(d.body) ?? "a delivery"}: signature not verified`);
    else problems.push(...validate(d.body));
  }
  return [...new Set(problems)];
}
