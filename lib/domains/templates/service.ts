// Templates of a customer: list (filters, page pagination), read by uid or name, create
// through the provider (pending review; the provider's callback approves it), and sync.

import { ApiError, notFound } from "@/lib/core/errors";
import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import type { Version } from "@/lib/core/version";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { getProvider } from "@/lib/domains/provider/client";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import type { Sender } from "@/lib/domains/senders/service";
import type { Prisma, Template } from "@/lib/generated/prisma/client";
import type { TemplateInput, TemplateListInput } from "./schemas";

export async function listTemplates(
  p: Principal,
  query: TemplateListInput,
  version: Version,
): Promise<{ templates: Template[]; pagination: PageBlock }> {
  const where: Prisma.TemplateWhereInput = { customerId: p.customerId };
  if (query.status) where.status = query.status;
  if (query.category) where.category = { equals: query.category, mode: "insensitive" };
  if (query.language) where.language = query.language;
  if (query.search) where.name = { contains: query.search.toLowerCase() };
  if (query.source && version === "v3") where.source = query.source;
  const [total, templates] = await Promise.all([
    db.template.count({ where }),
    db.template.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], ...skipTake(query) }),
  ]);
  return { templates, pagination: pageBlock(query.page, query.limit, total, templates.length) };
}

/** By uid, else by name (with ?language, else the first language by name). */
export async function getTemplate(p: Principal, identifier: string, language?: string): Promise<Template> {
  const byUid = await db.template.findFirst({ where: { customerId: p.customerId, id: identifier } });
  if (byUid) return byUid;
  const byName = await db.template.findFirst({
    where: { customerId: p.customerId, name: identifier, ...(language ? { language } : {}) },
    orderBy: [{ language: "asc" }],
  });
  if (!byName) throw notFound("Template");
  return byName;
}

/**
 * A template is made in the sender's business account and the provider's review verdict comes
 * per business account: a sender without a business account id would leave it PENDING for
 * ever, so it is refused with the setup error naming what is missing (docs/templates.md "Review").
 */
function requireBusinessAccount(sender: Sender): void {
  if (sender.wabaId) return;
  throw new ApiError(
    "WHATSAPP_SETUP_INCOMPLETE",
    `Sender ${sender.phoneNumber} has no business account id (wabaId): templates are created and reviewed per business account. Connect the sender with its business account id, then create the template`,
    { senderId: sender.phoneNumber, missing: "wabaId" },
  );
}

export async function createTemplate(p: Principal, sender: Sender, input: TemplateInput): Promise<Template> {
  requireBusinessAccount(sender);
  const exists = await db.template.findFirst({
    where: { customerId: p.customerId, name: input.name, language: input.language },
    select: { id: true },
  });
  if (exists) {
    throw new ApiError("TEMPLATE_ALREADY_EXISTS", `Template ${input.name} (${input.language}) already exists`, {
      templateUid: exists.id,
    });
  }
  const created = await getProvider().createTemplate(providerSender(sender), input);
  return db.template.create({
    data: {
      customerId: p.customerId,
      wabaId: sender.wabaId,
      providerTemplateId: created.id,
      name: input.name,
      language: input.language,
      category: created.category.toUpperCase(),
      status: created.status,
      source: "MANUAL",
      origin: "switchboard",
      components: input.components as Prisma.InputJsonValue,
    },
  });
}

/** Pulls the sender's business account templates from the provider and upserts them. */
export function syncTemplates(p: Principal, sender: Sender): Promise<{ synced: number }> {
  return syncAccountTemplates(p.customerId, sender);
}

/** The same for an operator (CLI) acting on a customer's sender. */
export async function syncAccountTemplates(customerId: string, sender: Sender): Promise<{ synced: number }> {
  const remote = await getProvider().listTemplates(providerSender(sender));
  for (const t of remote) {
    const data = {
      wabaId: sender.wabaId,
      providerTemplateId: t.id,
      category: t.category.toUpperCase(),
      status: t.status,
      quality: t.qualityScore ?? null,
      correctCategory: t.correctCategory ?? null,
      components: t.components as Prisma.InputJsonValue,
    };
    await db.template.upsert({
      where: { customerId_name_language: { customerId: customerId, name: t.name, language: t.language } },
      // First seen here: made on the provider's side (its sample hello_world, or the business
      // account's own manager); a template created here keeps its origin on later syncs.
      create: { customerId: customerId, name: t.name, language: t.language, origin: "provider", ...data },
      update: data,
    });
  }
  return { synced: remote.length };
}
