// Saved replies (docs/inbox.md "Saved replies"): per-account snippets with a shortcut, which
// an inbox member inserts by typing `/shortcut` in the reply box; one may hold reply buttons
// (sent as a buttons message whose body is its text). Every inbox member reads them; owners
// and admins manage them (the inbox.settings permission, checked here too).
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import type { SavedReplyValue } from "./inbox-settings-schemas";
import type { InteractiveButtonValue } from "./interactive-buttons";

export type SavedReply = {
  id: string;
  shortcut: string;
  text: string;
  /** Reply buttons, or null for a text reply. */
  buttons: InteractiveButtonValue[] | null;
  updatedAt: Date;
};

const SELECT = { id: true, shortcut: true, text: true, buttons: true, updatedAt: true } as const;

type Row = { id: string; shortcut: string; text: string; buttons: Prisma.JsonValue; updatedAt: Date };

const toSavedReply = (r: Row): SavedReply => ({
  ...r,
  buttons: Array.isArray(r.buttons) && r.buttons.length > 0 ? (r.buttons as InteractiveButtonValue[]) : null,
});

/** The row's data: the buttons kept only when there are some (the input was checked: InteractiveButtons). */
const dataOf = (input: SavedReplyValue) => ({
  shortcut: input.shortcut,
  text: input.text,
  buttons: input.buttons?.length ? input.buttons : Prisma.DbNull,
});

const notFound = () => new ApiError("NOT_FOUND", "Saved reply not found in this account");
const taken = (shortcut: string) => {
  const message = `/${shortcut} is already a saved reply`;
  return new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "shortcut", message }] });
};

/** Every saved reply of the account, by shortcut (the composer's list, the management page). */
export async function listSavedReplies(p: Principal): Promise<SavedReply[]> {
  if (p.member) assertPermission(p, "inbox");
  const rows = await db.savedReply.findMany({
    where: { customerId: p.customerId },
    select: SELECT,
    orderBy: { shortcut: "asc" },
  });
  return rows.map(toSavedReply);
}

async function unique<T>(shortcut: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw taken(shortcut);
    throw error;
  }
}

export async function createSavedReply(p: Principal, input: SavedReplyValue): Promise<SavedReply> {
  assertPermission(p, "inbox.settings");
  const row = await unique(input.shortcut, () =>
    db.savedReply.create({
      data: { id: `sr_${randomBytes(10).toString("hex")}`, customerId: p.customerId, ...dataOf(input) },
      select: SELECT,
    }),
  );
  return toSavedReply(row);
}

export async function updateSavedReply(p: Principal, id: string, input: SavedReplyValue): Promise<void> {
  assertPermission(p, "inbox.settings");
  const { count } = await unique(input.shortcut, () =>
    db.savedReply.updateMany({ where: { id, customerId: p.customerId }, data: dataOf(input) }),
  );
  if (count === 0) throw notFound();
}

export async function deleteSavedReply(p: Principal, id: string): Promise<void> {
  assertPermission(p, "inbox.settings");
  const { count } = await db.savedReply.deleteMany({ where: { id, customerId: p.customerId } });
  if (count === 0) throw notFound();
}
