// Template parameters (docs/templates.md "Parameters"): the provider's rule
// (lib/domains/provider/template-parameters.ts), and the refusal a send gets from us when its
// components do not fit its template, before it reaches the provider.
import { ApiError } from "@/lib/core/errors";
import { findParameterProblem } from "@/lib/domains/provider/template-parameters";

export {
  findParameterProblem,
  type ParameterSlot,
  templateParameters,
  variablesOf,
} from "@/lib/domains/provider/template-parameters";

export type TemplateLike = { name: string; language: string; components: unknown };

/**
 * Refuses a send whose components do not fit the template: VALIDATION_FAILED naming the
 * component and index; details.providerCode gives the provider-compatible routes the
 * provider's own code (lib/api/envelope.ts).
 */
export function assertTemplateParameters(template: TemplateLike, sendComponents: unknown): void {
  const refusal = templateParameterRefusal(template, sendComponents);
  if (refusal) throw refusal;
}

/** The VALIDATION_FAILED a send's parameters get against its template, or undefined when they fit. */
export function templateParameterRefusal(template: TemplateLike, sendComponents: unknown): ApiError | undefined {
  const problem = findParameterProblem(template.components, sendComponents);
  if (!problem) return undefined;
  const message = `Template ${template.name} (${template.language}): ${problem.message}`;
  return new ApiError("VALIDATION_FAILED", message, {
    template: template.name,
    language: template.language,
    component: problem.component,
    index: problem.index,
    ...(problem.expected !== undefined ? { expected: problem.expected, received: problem.received } : {}),
    providerCode: problem.providerCode,
    fields: [{ path: "template.components", message }],
  });
}
