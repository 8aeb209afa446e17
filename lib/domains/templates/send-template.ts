// The template step of the send pipeline (docs/messaging.md "The send pipeline"): a template
// send names an existing, APPROVED template of the customer; a v3 Direct Send goes out through
// its auto-generated template (direct-send.ts). Checks of a send against its template (its
// parameters, for one) belong in TEMPLATE_CHECKS below.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { TEMPLATE_NOT_FOUND } from "@/lib/domains/provider/error-codes";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { Sender } from "@/lib/domains/senders/service";
import type { Template } from "@/lib/generated/prisma/client";
import { type DirectSendCategory, directSendTemplate } from "./direct-send";
import { templateParameterRefusal } from "./parameters";

/** What the template step reads of a send. */
export type TemplateSend = {
  /** The provider body: a template send's `template.components` carry its parameters. */
  payload: ProviderMessagePayload;
  template?: { name: string; language: string };
  directSend?: { category: DirectSendCategory };
};

/** The template a send goes out with (null: none), or the refusal it gets. */
export type TemplateVerdict = { ok: true; template: Template | null } | { ok: false; refusal: ApiError };

/**
 * Checks of a template send against its found, APPROVED template, in this order: the first
 * refusal is the answer; undefined lets the send go. Add a check here (a pure function; what
 * it needs to read, read once per template in `approvedTemplate`). Direct Send fills its own
 * template's one parameter and is not checked here.
 */
const TEMPLATE_CHECKS: readonly ((template: Template, send: TemplateSend) => ApiError | undefined)[] = [
  // Its parameters fit the template's slots (the provider refuses a mismatch; docs/templates.md "Parameters").
  (template, send) => templateParameterRefusal(template, componentsOf(send.payload)),
];

/** The components a template payload sends (none: an empty list). */
function componentsOf(payload: ProviderMessagePayload): unknown {
  const t = payload.template as { components?: unknown } | undefined;
  return t?.components ?? [];
}

/** Per send, its template or its refusal; one look-up per distinct template of the batch. */
export async function sendTemplates(
  customerId: string,
  sender: Sender,
  sends: readonly TemplateSend[],
): Promise<TemplateVerdict[]> {
  const lookups = new Map<string, Promise<Template | ApiError>>();
  const once = (key: string, load: () => Promise<Template | ApiError>) => {
    let found = lookups.get(key);
    if (!found) {
      found = load();
      lookups.set(key, found);
    }
    return found;
  };
  return Promise.all(
    sends.map(async (send): Promise<TemplateVerdict> => {
      const direct = send.directSend;
      const named = send.template;
      const found = direct
        ? await once(`direct|${direct.category}`, () => directSendTemplate(customerId, sender, direct.category))
        : named
          ? await once(`${named.name}|${named.language}`, () =>
              approvedTemplate(customerId, named.name, named.language),
            )
          : null;
      if (found instanceof ApiError) return { ok: false, refusal: found };
      if (found && !direct) {
        for (const check of TEMPLATE_CHECKS) {
          const refusal = check(found, send);
          if (refusal) return { ok: false, refusal };
        }
      }
      return { ok: true, template: found };
    }),
  );
}

// Found templates are remembered for two seconds (a status change applies within that);
// a miss is always re-read, so a new template is usable at once.
const TEMPLATE_TTL_MS = 2_000;
const templates = new Map<string, { at: number; template: Template }>();

/** A template of the customer by name and language, from a cache of at most two seconds. */
export async function findTemplate(customerId: string, name: string, language: string): Promise<Template | null> {
  const key = `${customerId}|${name}|${language}`;
  const hit = templates.get(key);
  if (hit && Date.now() - hit.at < TEMPLATE_TTL_MS) return hit.template;
  const template = await db.template.findFirst({ where: { customerId, name, language } });
  if (templates.size > 10_000) templates.clear();
  if (template) templates.set(key, { at: Date.now(), template });
  else templates.delete(key);
  return template;
}

async function approvedTemplate(customerId: string, name: string, language: string): Promise<Template | ApiError> {
  const template = await findTemplate(customerId, name, language);
  if (!template) {
    return new ApiError("TEMPLATE_NOT_FOUND", `Template ${name} (${language}) does not exist`, {
      template: name,
      language,
      providerCode: TEMPLATE_NOT_FOUND,
    });
  }
  if (template.status !== "APPROVED") {
    return new ApiError("TEMPLATE_NOT_APPROVED", `Template ${name} (${language}) is ${template.status}, not APPROVED`, {
      template: name,
      language,
      status: template.status,
      providerCode: 132015,
    });
  }
  return template;
}
