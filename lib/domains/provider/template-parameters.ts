// Template parameters, the provider's rule (docs/templates.md "Parameters"): what a template's
// components ask of a send (its slots), and whether a send's components give exactly that.
// The provider refuses a mismatch (error 132000 for a count, 132012 for a kind); every send
// path asks here first (lib/domains/templates/parameters.ts) so that the refusal is ours,
// early and names the component and index. Pure: the simulator refuses with it as the
// provider does, and the dashboard's forms and previews use it as the send paths do.

export type SlotComponent = "header" | "body" | "button";
export type SlotKind = "text" | "image" | "video" | "document" | "location" | "coupon_code" | "payload" | "action";

/** One value a send gives (or may give) a template. */
export type ParameterSlot = {
  component: SlotComponent;
  /** Header and body: the parameter's position (0-based); button: the button's index. */
  index: number;
  /** The variable: "1", "2" (positional) or its name ({{first_name}}); "" for media, codes, payloads. */
  variable: string;
  kind: SlotKind;
  required: boolean;
  /** Buttons: the sub_type the send names (url, copy_code, quick_reply, flow). */
  subType?: string;
  /** Buttons: the button's label. */
  label?: string;
  /** The template's example value for this slot, when it has one. */
  example?: string;
};

/** A template's slots; named says body variables go by name ({{first_name}}), not position. */
export type TemplateParameters = { slots: ParameterSlot[]; named: boolean; buttonCount: number; opaque: string[] };

export type ParameterProblem = {
  component: SlotComponent | "component";
  index: number;
  message: string;
  /** The provider's code: 132000 count, 132012 kind, 131008 a value missing, 131009 malformed. */
  providerCode: 132000 | 132012 | 131008 | 131009;
  expected?: number;
  received?: number;
};

export const PARAMETER_COUNT_MISMATCH = 132000;
export const PARAMETER_FORMAT_MISMATCH = 132012;
export const PARAMETER_MISSING = 131008;
export const PARAMETER_INVALID = 131009;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const lower = (v: unknown) => str(v)?.toLowerCase() ?? "";

const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct variables of a text in order: positional ones sorted 1..n, named ones as they appear. */
export function variablesOf(text: string): { names: string[]; named: boolean } {
  const found = [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1] ?? ""))].filter(Boolean);
  const named = found.some((v) => !/^\d+$/.test(v));
  if (named) return { names: found, named: true };
  // The provider numbers variables 1..n; a gap still counts up to the highest number.
  const highest = found.reduce((max, v) => Math.max(max, Number(v)), 0);
  return { names: Array.from({ length: highest }, (_, i) => String(i + 1)), named: false };
}

const MEDIA_FORMATS = new Set(["image", "video", "document", "location"]);
/** Components the provider has that we do not model (carousels, offers): passed through unchecked. */
const MODELLED = new Set(["header", "body", "footer", "buttons"]);

function exampleList(example: unknown, key: string): unknown[] {
  const list = isObject(example) ? example[key] : undefined;
  return Array.isArray(list) ? list : [];
}

/** The slots of a template's components (the provider's creation shape, as stored). */
export function templateParameters(components: unknown): TemplateParameters {
  const list = Array.isArray(components) ? components.filter(isObject) : [];
  const slots: ParameterSlot[] = [];
  let named = false;
  let buttonCount = 0;
  const opaque: string[] = [];
  for (const c of list) {
    const type = lower(c.type);
    if (!MODELLED.has(type)) {
      if (type) opaque.push(type);
      continue;
    }
    if (type === "header") {
      const format = lower(c.format) || "text";
      if (MEDIA_FORMATS.has(format)) {
        slots.push({ component: "header", index: 0, variable: "", kind: format as SlotKind, required: true });
      } else {
        const { names } = variablesOf(str(c.text) ?? "");
        const examples = exampleList(c.example, "header_text");
        names.slice(0, 1).forEach((variable, index) => {
          slots.push({
            component: "header",
            index,
            variable,
            kind: "text",
            required: true,
            example: str(examples[index]),
          });
        });
      }
    } else if (type === "body") {
      const vars = variablesOf(str(c.text) ?? "");
      named = vars.named;
      const positional = exampleList(c.example, "body_text")[0];
      const byName = new Map(
        exampleList(c.example, "body_text_named_params")
          .filter(isObject)
          .map((e) => [str(e.param_name) ?? "", str(e.example)]),
      );
      vars.names.forEach((variable, index) => {
        const example = vars.named
          ? byName.get(variable)
          : Array.isArray(positional)
            ? str(positional[index])
            : undefined;
        slots.push({ component: "body", index, variable, kind: "text", required: true, example });
      });
    } else if (type === "buttons") {
      const buttons = Array.isArray(c.buttons) ? c.buttons.filter(isObject) : [];
      buttonCount = buttons.length;
      buttons.forEach((b, index) => {
        const slot = buttonSlot(b, index);
        if (slot) slots.push(slot);
      });
    }
  }
  return { slots, named, buttonCount, opaque };
}

function buttonSlot(b: Json, index: number): ParameterSlot | null {
  const type = lower(b.type);
  const label = str(b.text);
  const example = Array.isArray(b.example) ? str(b.example[0]) : str(b.example);
  if (type === "url") {
    if (variablesOf(str(b.url) ?? "").names.length === 0) return null;
    return { component: "button", index, variable: "1", kind: "text", required: true, subType: "url", label, example };
  }
  if (type === "copy_code") {
    return {
      component: "button",
      index,
      variable: "",
      kind: "coupon_code",
      required: true,
      subType: "copy_code",
      label,
      example,
    };
  }
  // Authentication templates: the one-time code travels as the URL button's text parameter.
  if (type === "otp") {
    return { component: "button", index, variable: "", kind: "text", required: true, subType: "url", label };
  }
  if (type === "quick_reply") {
    return {
      component: "button",
      index,
      variable: "",
      kind: "payload",
      required: false,
      subType: "quick_reply",
      label,
    };
  }
  if (type === "flow") {
    return { component: "button", index, variable: "", kind: "action", required: false, subType: "flow", label };
  }
  return null;
}

const describeSlot = (s: Pick<ParameterSlot, "component" | "index" | "variable">) =>
  s.component === "button"
    ? `button ${s.index}`
    : s.variable
      ? `${s.component} parameter ${s.index + 1} ({{${s.variable}}})`
      : `${s.component} parameter ${s.index + 1}`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** Whether a sent parameter is of the slot's kind and carries its value. */
function valueProblem(slot: ParameterSlot, p: Json): { code: ParameterProblem["providerCode"]; why: string } | null {
  const type = lower(p.type);
  const allowed = slot.kind === "text" && slot.component !== "button" ? ["text", "currency", "date_time"] : [slot.kind];
  if (!allowed.includes(type)) {
    return {
      code: PARAMETER_FORMAT_MISMATCH,
      why: `must be of type ${allowed.join(" or ")}${type ? `, not ${type}` : " (type is missing)"}`,
    };
  }
  const value = p[type];
  if (type === "text" || type === "payload" || type === "coupon_code") {
    if (typeof value !== "string" || value.trim() === "")
      return { code: PARAMETER_MISSING, why: `has no ${type} value` };
    return null;
  }
  if (type === "image" || type === "video" || type === "document") {
    if (!isObject(value) || !(str(value.link) || str(value.id))) {
      return { code: PARAMETER_MISSING, why: `needs ${type}.link or ${type}.id` };
    }
    return null;
  }
  if (type === "location") {
    if (!isObject(value) || typeof value.latitude !== "number" || typeof value.longitude !== "number") {
      return { code: PARAMETER_MISSING, why: "needs location.latitude and location.longitude" };
    }
    return null;
  }
  if (!isObject(value)) return { code: PARAMETER_MISSING, why: `needs a ${type} object` };
  return null;
}

type SentComponent = { type: string; position: number; parameters: Json[]; subType: string; index: number | null };

function sentComponents(components: unknown): SentComponent[] | ParameterProblem {
  const out: SentComponent[] = [];
  const list = Array.isArray(components) ? components : [];
  for (const [position, c] of list.entries()) {
    if (!isObject(c)) {
      return {
        component: "component",
        index: position,
        providerCode: PARAMETER_INVALID,
        message: `components[${position}] must be an object`,
      };
    }
    const rawIndex = c.index;
    const index =
      typeof rawIndex === "number"
        ? rawIndex
        : typeof rawIndex === "string" && /^\d+$/.test(rawIndex)
          ? Number(rawIndex)
          : null;
    const parameters = Array.isArray(c.parameters) ? c.parameters : [];
    const bad = parameters.findIndex((p) => !isObject(p));
    if (bad >= 0) {
      return {
        component: "component",
        index: position,
        providerCode: PARAMETER_INVALID,
        message: `components[${position}].parameters[${bad}] must be an object`,
      };
    }
    out.push({ type: lower(c.type), position, parameters: parameters as Json[], subType: lower(c.sub_type), index });
  }
  return out;
}

/** Header or body: the count first, then each parameter's kind and value. */
function checkPositional(
  component: "header" | "body",
  slots: ParameterSlot[],
  sent: SentComponent | undefined,
  named: boolean,
): ParameterProblem | null {
  const given = sent?.parameters ?? [];
  if (given.length !== slots.length) {
    const index = Math.min(given.length, slots.length);
    const missing = given.length < slots.length;
    const slot = slots[index] ?? { component, index, variable: "" };
    return {
      component,
      index,
      expected: slots.length,
      received: given.length,
      providerCode: PARAMETER_COUNT_MISMATCH,
      message: missing
        ? `${describeSlot(slot)} is missing: the template's ${component} takes ${plural(slots.length, "parameter")}, ${given.length} given`
        : `${component} parameter ${index + 1} is one too many: the template's ${component} takes ${plural(slots.length, "parameter")}, ${given.length} given`,
    };
  }
  for (const [index, slot] of slots.entries()) {
    const p = named ? given.find((g) => str(g.parameter_name) === slot.variable) : given[index];
    if (!p) {
      return {
        component,
        index,
        providerCode: PARAMETER_MISSING,
        message: `${describeSlot(slot)} is missing: name it with parameter_name "${slot.variable}"`,
      };
    }
    const problem = valueProblem(slot, p);
    if (problem)
      return { component, index, providerCode: problem.code, message: `${describeSlot(slot)} ${problem.why}` };
  }
  return null;
}

function checkButtons(t: TemplateParameters, sent: SentComponent[]): ParameterProblem | null {
  const seen = new Set<number>();
  for (const b of sent) {
    if (b.index === null || b.index < 0) {
      return {
        component: "button",
        index: b.position,
        providerCode: PARAMETER_INVALID,
        message: `components[${b.position}] (button) needs an index`,
      };
    }
    if (seen.has(b.index)) {
      return {
        component: "button",
        index: b.index,
        providerCode: PARAMETER_INVALID,
        message: `button ${b.index} is given twice`,
      };
    }
    seen.add(b.index);
    const slot = t.slots.find((s) => s.component === "button" && s.index === b.index);
    if (!slot) {
      const exists = b.index < t.buttonCount;
      return {
        component: "button",
        index: b.index,
        expected: 0,
        received: b.parameters.length,
        providerCode: PARAMETER_COUNT_MISMATCH,
        message: exists
          ? `button ${b.index} takes no parameters`
          : `button ${b.index} is not in the template (it has ${plural(t.buttonCount, "button")})`,
      };
    }
    if (b.subType !== slot.subType) {
      return {
        component: "button",
        index: b.index,
        providerCode: PARAMETER_FORMAT_MISMATCH,
        message: `button ${b.index} has sub_type ${slot.subType}${b.subType ? `, not ${b.subType}` : " (sub_type is missing)"}`,
      };
    }
    if (b.parameters.length !== 1) {
      return {
        component: "button",
        index: b.index,
        expected: 1,
        received: b.parameters.length,
        providerCode: PARAMETER_COUNT_MISMATCH,
        message: `button ${b.index} takes 1 parameter, ${b.parameters.length} given`,
      };
    }
    const problem = valueProblem(slot, b.parameters[0] as Json);
    if (problem)
      return {
        component: "button",
        index: b.index,
        providerCode: problem.code,
        message: `button ${b.index} parameter ${problem.why}`,
      };
  }
  const missing = t.slots.find((s) => s.component === "button" && s.required && !seen.has(s.index));
  if (missing) {
    return {
      component: "button",
      index: missing.index,
      expected: 1,
      received: 0,
      providerCode: PARAMETER_COUNT_MISMATCH,
      message: `button ${missing.index}${missing.label ? ` ("${missing.label}")` : ""} needs a ${missing.kind === "coupon_code" ? "coupon_code" : "text"} parameter (sub_type ${missing.subType}), none given`,
    };
  }
  return null;
}

/** The first way a send's components do not fit the template, or null when they fit. */
export function findParameterProblem(templateComponents: unknown, sendComponents: unknown): ParameterProblem | null {
  const t = templateParameters(templateComponents);
  const parsed = sentComponents(sendComponents);
  if (!Array.isArray(parsed)) return parsed;
  const byType = new Map<string, SentComponent[]>();
  for (const c of parsed) byType.set(c.type, [...(byType.get(c.type) ?? []), c]);
  for (const [type, list] of byType) {
    if (type === "header" || type === "body" || type === "button" || t.opaque.includes(type)) {
      const twice = list[1];
      if (twice && type !== "button") {
        return {
          component: type as SlotComponent,
          index: twice.position,
          providerCode: PARAMETER_INVALID,
          message: `the ${type} component is given twice`,
        };
      }
      continue;
    }
    const first = list[0] as SentComponent;
    return {
      component: "component",
      index: first.position,
      providerCode: PARAMETER_INVALID,
      message: `components[${first.position}] has type "${type || "(none)"}"; a send names header, body or button`,
    };
  }
  const of = (c: SlotComponent) => t.slots.filter((s) => s.component === c);
  return (
    checkPositional("header", of("header"), byType.get("header")?.[0], false) ??
    checkPositional("body", of("body"), byType.get("body")?.[0], t.named) ??
    checkButtons(t, byType.get("button") ?? [])
  );
}
