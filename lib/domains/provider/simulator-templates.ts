// What the simulator knows of a business number's templates (the provider keeps every
// template of the account): the components a template was created with, read from the
// templates the account holds, so that the simulator refuses parameters that do not fit
// as the provider does (lib/domains/templates/parameters.ts).
import { hotRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Remembered for two seconds, as the send path remembers templates (lib/domains/messaging/send.ts).
// The look-up itself is shared: a batch of sends (a broadcast's) that finds the entry expired
// makes one query, not one per send.
const TTL_MS = 2_000;
const known = new Map<string, { at: number; components: Promise<unknown[] | null> }>();

/** The template's components, or null when the number's account has no such template. */
export function templateComponentsFor(
  phoneNumberId: string,
  name: string,
  language: string,
): Promise<unknown[] | null> {
  const key = `${phoneNumberId}|${name}|${language}`;
  const hit = known.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.components;
  const components = lookUp(phoneNumberId, name, language);
  if (known.size > 10_000) known.clear();
  known.set(key, { at: Date.now(), components });
  // A failed look-up is not remembered.
  components.catch(() => known.delete(key));
  return components;
}

async function lookUp(phoneNumberId: string, name: string, language: string): Promise<unknown[] | null> {
  const [row] = await hotRows<{ components: unknown }>(
    Prisma.sql`SELECT t."components" FROM "Template" t JOIN "Sender" s ON s."customerId" = t."customerId"
      WHERE s."phoneNumberId" = ${phoneNumberId} AND t."name" = ${name} AND t."language" = ${language}`,
  );
  const raw = typeof row?.components === "string" ? JSON.parse(row.components) : row?.components;
  return Array.isArray(raw) ? raw : row ? [] : null;
}
