// The demo's labels (docs/automation.md "Labels"): refund, VIP and follow-up, on a few of the
// seeded conversations (VIP on Ana's number too), so the inbox shows labels, its filter has
// something to find and the rules that label have labels to use. Once per account: an
// account that already has labels keeps its own.
import { randomBytes } from "node:crypto";
import { labelKey } from "@/lib/core/label-key";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export const DEMO_LABELS = [
  { name: "refund", color: "red", description: "Asked for a refund" },
  { name: "VIP", color: "purple", description: "A VIP customer (the contact field vip)" },
  { name: "follow-up", color: "yellow", description: "Someone promised to come back to it" },
] as const;

/** The seeded conversations (by contact name, lib/domains/demo/seed-conversations.ts) and the label each carries. */
export const DEMO_CONVERSATION_LABELS: Record<string, string> = {
  "Ana Ruiz": "VIP",
  "Ben Carter": "follow-up",
  "Dana Okafor": "refund",
};

export async function ensureLabels(customerId: string): Promise<void> {
  if ((await db.label.count({ where: { customerId } })) > 0) return;
  await db.label.createMany({
    data: DEMO_LABELS.map((l) => ({
      id: `lbl_${randomBytes(10).toString("hex")}`,
      customerId,
      name: l.name,
      nameKey: labelKey(l.name),
      color: l.color,
      description: l.description,
    })),
  });
  // A few of the demo's conversations carry them (the seeded contacts' names), Ana's number too.
  const on = Object.entries(DEMO_CONVERSATION_LABELS).map(([name, label]) => `${name}\t${labelKey(label)}`);
  await db.$executeRaw(Prisma.sql`
    INSERT INTO "ConversationLabel" ("conversationId", "labelId", "customerId")
    SELECT c."id", l."id", c."customerId" FROM unnest(${on}::text[]) AS t(pair)
      JOIN "Conversation" c ON c."customerId" = ${customerId} AND c."contactName" = split_part(t.pair, E'\t', 1)
      JOIN "Label" l ON l."customerId" = ${customerId} AND l."nameKey" = split_part(t.pair, E'\t', 2)
    ON CONFLICT DO NOTHING`);
  await db.$executeRaw(Prisma.sql`
    INSERT INTO "ContactLabel" ("customerId", "phoneNumber", "labelId")
    SELECT DISTINCT c."customerId", c."contactPhoneNumber", l."id" FROM "Conversation" c
      JOIN "Label" l ON l."customerId" = c."customerId" AND l."nameKey" = 'vip'
    WHERE c."customerId" = ${customerId} AND c."contactName" = 'Ana Ruiz'
    ON CONFLICT DO NOTHING`);
}
