// Templates: list (v3 adds source, correctCategory and the source filter), read by uid or
// name, create (X-Service-Template-Uid) and sync from the provider.

import { listOf } from "@/lib/core/pagination";
import { PathText } from "@/lib/core/path-params";
import * as examples from "@/lib/domains/templates/examples";
import {
  PublicTemplate,
  TemplateCreateBody,
  TemplateGetQuery,
  TemplateListPublic,
  TemplateListQuery,
  TemplateSyncPublic,
} from "@/lib/domains/templates/schemas";
import { toPublicTemplate } from "@/lib/domains/templates/serializers";
import { createTemplate, getTemplate, listTemplates, syncTemplates } from "@/lib/domains/templates/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "messaging",
  tag: "Templates",
  tokenScope: "any",
  // A template's uid or its name: the look-up tells them apart.
  params: { identifier: PathText },
} as const;

export const messagingTemplateRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/templates",
    permission: "templates",
    example: examples.getTemplates,
    summary: "List templates",
    description: "Filter by status, category, language and search text; v3 also by source.",
    query: TemplateListQuery,
    response: TemplateListPublic,
    handler: async ({ principal, query, version }) => {
      const { templates, pagination } = await listTemplates(principal, query, version);
      const items = templates.map((t) => toPublicTemplate(t, version));
      return ok("Templates retrieved", { ...listOf("templates", items), pagination });
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/templates/:identifier",
    permission: "templates",
    example: examples.getTemplatesByIdentifier,
    summary: "Read a template",
    description: "By uid or name; pass ?language when a name has several languages.",
    query: TemplateGetQuery,
    response: PublicTemplate,
    handler: async ({ principal, params, query, version }) =>
      ok(
        "Template retrieved",
        toPublicTemplate(await getTemplate(principal, params.identifier, query.language), version),
      ),
  }),
  route({
    ...common,
    method: "POST",
    path: "/templates",
    permission: "templates",
    example: examples.postTemplates,
    idempotent: "template.create",
    responseHeaders: ["X-Service-Template-Uid"],
    sender: "resolve",
    summary: "Create a template",
    description: "Submitted to the provider for review; the X-Service-Template-Uid header carries its uid.",
    body: TemplateCreateBody,
    response: PublicTemplate,
    successStatus: 201,
    errors: ["TEMPLATE_ALREADY_EXISTS"],
    handler: async ({ principal, sender, body, version }) => {
      const template = await createTemplate(principal, sender, body.template);
      return {
        status: 201,
        ...ok("Template created and submitted for review", toPublicTemplate(template, version)),
        headers: { "X-Service-Template-Uid": template.id },
      };
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/templates/sync",
    permission: "templates",
    example: examples.postTemplatesSync,
    sender: "resolve",
    summary: "Sync templates from the provider",
    description: "Syncs the sender's business account templates from the provider.",
    response: TemplateSyncPublic,
    handler: async ({ principal, sender }) => ok("Templates synced", await syncTemplates(principal, sender)),
  }),
];
