"use server";
// The Templates page's actions: create a template (submitted to the provider for review, as
// POST /templates does) and sync the account's templates from the provider (POST /templates/sync).
import { z } from "zod";
import { defineAction } from "@/lib/dashboard/define-action";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { TemplateCreateBody } from "@/lib/domains/templates/schemas";
import { createTemplate, syncTemplates } from "@/lib/domains/templates/service";

export const createTemplateAction = defineAction({
  permission: "templates",
  schema: TemplateCreateBody,
  run: async ({ principal, input }) => {
    const sender = await actionSender(principal, input.senderId);
    const template = await createTemplate(principal, sender, input.template);
    return { uid: template.id };
  },
  revalidate: "/templates",
});

export const syncTemplatesAction = defineAction({
  permission: "templates",
  schema: z.object({ senderId: z.string().optional() }),
  run: async ({ principal, input }) => syncTemplates(principal, await actionSender(principal, input.senderId)),
  revalidate: "/templates",
});
