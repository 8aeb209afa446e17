// The account's labels (docs/automation.md "Labels"): list, read, create, update, delete.
// Names are unique per account whatever the case: the unique index is on (customerId,
// nameKey), nameKey being the name in lower case, so two concurrent creates of "VIP" and
// "vip" cannot both succeed. Reading needs the inbox or the contacts; changing the labels
// themselves is an inbox setting. Every query carries the tenant.
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import { labelKey } from "@/lib/core/label-key";
import { db, type Tx } from "@/lib/db";
import { assertPermission, can } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { refreshSla } from "@/lib/domains/sla/timers";
import { Prisma } from "@/lib/generated/prisma/client";
import type { LabelColor, LabelPatchValue, LabelValue } from "./schemas";

export type LabelRow = {
  id: string;
  name: string;
  color: LabelColor;
  description: string;
  createdAt: Date;
  updatedAt: Date;
};

const SELECT = { id: true, name: true, color: true, description: true, createdAt: true, updatedAt: true } as const;

/** Label names sorted as every API object lists them (by the folded name, then the name). */
export function sortNames(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => {
    const ka = labelKey(a);
    const kb = labelKey(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export const isLabelUid = (uid: string) => /^lbl_[0-9a-f]{1,64}$/.test(uid);

export const labelNotFound = (uid: string) =>
  new ApiError("LABEL_NOT_FOUND", "Label not found in this account", { labelUid: uid });

const labelExists = (name: string) =>
  new ApiError("LABEL_EXISTS", `A label named "${name}" exists already in this account`, { name });

/** A member reads labels with the inbox or the contacts; tokens are checked by the router. */
function assertCanRead(p: Principal): void {
  if (p.member && !can(p, "inbox")) assertPermission(p, "contacts.read");
}

/** Members change the labels themselves with the inbox settings permission. */
function assertCanManage(p: Principal): void {
  if (p.member) assertPermission(p, "inbox.settings");
}

const asRow = (r: { color: string } & Omit<LabelRow, "color">): LabelRow => ({ ...r, color: r.color as LabelColor });

export async function listLabels(p: Principal): Promise<LabelRow[]> {
  assertCanRead(p);
  const rows = await db.label.findMany({ where: { customerId: p.customerId }, select: SELECT });
  const byName = new Map(rows.map((r) => [r.name, r]));
  return sortNames(byName.keys()).flatMap((name) => {
    const row = byName.get(name);
    return row ? [asRow(row)] : [];
  });
}

export async function getLabel(p: Principal, uid: string): Promise<LabelRow> {
  assertCanRead(p);
  if (!isLabelUid(uid)) throw labelNotFound(uid);
  const row = await db.label.findFirst({ where: { id: uid, customerId: p.customerId }, select: SELECT });
  if (!row) throw labelNotFound(uid);
  return asRow(row);
}

async function unique<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw labelExists(name);
    throw error;
  }
}

export async function createLabel(p: Principal, input: LabelValue): Promise<LabelRow> {
  assertCanManage(p);
  const row = await unique(input.name, () =>
    db.label.create({
      data: {
        id: `lbl_${randomBytes(10).toString("hex")}`,
        customerId: p.customerId,
        name: input.name,
        nameKey: labelKey(input.name),
        color: input.color,
        description: input.description,
      },
      select: SELECT,
    }),
  );
  return asRow(row);
}

/** Renaming keeps the label on everything that carries it (they hold it by uid). */
export async function updateLabel(p: Principal, uid: string, patch: LabelPatchValue): Promise<LabelRow> {
  assertCanManage(p);
  if (!isLabelUid(uid)) throw labelNotFound(uid);
  const data = {
    ...(patch.name !== undefined ? { name: patch.name, nameKey: labelKey(patch.name) } : {}),
    ...(patch.color !== undefined ? { color: patch.color } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
  };
  const { count } = await unique(patch.name ?? "", () =>
    db.label.updateMany({ where: { id: uid, customerId: p.customerId }, data }),
  );
  if (count === 0) throw labelNotFound(uid);
  return getLabel(p, uid);
}

/**
 * Deleting a label takes it off every conversation and contact (the foreign keys cascade). When
 * an SLA policy applies by that label, the open conversations that carried it choose their policy
 * again in the same transaction (rows locked in id order, as the inbound path locks them), as a
 * labels change does: one that held the policy by the label no longer keeps its due times.
 */
export async function deleteLabel(p: Principal, uid: string): Promise<LabelRow> {
  assertCanManage(p);
  if (!isLabelUid(uid)) throw labelNotFound(uid);
  return db.$transaction(async (tx) => {
    const row = await tx.label.findFirst({ where: { id: uid, customerId: p.customerId }, select: SELECT });
    if (!row) throw labelNotFound(uid);
    const [named] = await tx.$queryRaw<{ one: number }[]>`
      SELECT 1 AS one FROM "SlaPolicy"
       WHERE "customerId" = ${p.customerId} AND ${labelKey(row.name)} = ANY(SELECT lower(l) FROM unnest("labels") l)
       LIMIT 1`;
    const carrying = named
      ? await tx.$queryRaw<{ id: string }[]>`
          SELECT c."id" FROM "Conversation" c JOIN "ConversationLabel" cl ON cl."conversationId" = c."id"
           WHERE cl."labelId" = ${uid} AND c."customerId" = ${p.customerId} AND c."status" = 'OPEN'
           ORDER BY c."id" FOR UPDATE OF c`
      : [];
    const { count } = await tx.label.deleteMany({ where: { id: uid, customerId: p.customerId } });
    if (count === 0) throw labelNotFound(uid);
    await refreshSla(
      tx,
      carrying.map((c) => c.id),
      true,
    );
    return asRow(row);
  });
}

/**
 * The labels of the account `names` name (matched whatever the case), in one read; any name
 * that is no label is LABEL_NOT_FOUND naming every such name.
 */
export async function labelsNamed(
  client: Tx,
  customerId: string,
  names: readonly string[],
): Promise<{ id: string; name: string }[]> {
  const keys = [...new Set(names.map(labelKey))];
  if (keys.length === 0) return [];
  // Raw: automation rules read it in a plain transaction (lib/db/plain-tx.ts).
  const rows = await client.$queryRaw<{ id: string; name: string; nameKey: string }[]>(
    Prisma.sql`SELECT id, name, "nameKey" FROM "Label" WHERE "customerId" = ${customerId} AND "nameKey" = ANY(${keys}::text[])`,
  );
  const found = new Set(rows.map((r) => r.nameKey));
  const missing = [...new Set(names.filter((n) => !found.has(labelKey(n))))];
  if (missing.length > 0) {
    throw new ApiError("LABEL_NOT_FOUND", `No label named ${missing.map((n) => `"${n}"`).join(", ")} in this account`, {
      names: missing,
    });
  }
  return rows.map(({ id, name }) => ({ id, name }));
}
