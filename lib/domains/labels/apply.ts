// Putting labels on and taking them off a conversation or a contact (docs/automation.md
// "Labels"). Each change says what actually changed: an insert that meets a label already
// there, or a delete of one that is not, changes nothing and is not reported, so two
// concurrent requests adding "vip" report it once. A change of a conversation's labels
// emits conversation.labels_changed in the same transaction (only when something changed).
// Automation rules call the `...In` functions inside their own transaction.
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { actorLabel } from "@/lib/domains/conversations/assignment";
import { getConversation } from "@/lib/domains/conversations/service";
import { type EventSender, emitEvents } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { publishLive } from "@/lib/domains/live/publish";
import { refreshSla } from "@/lib/domains/sla/timers";
import { Prisma } from "@/lib/generated/prisma/client";
import { ConversationLabelsChanged } from "./event-types";
import type { LabelChangeValue } from "./schemas";
import { labelsNamed, sortNames } from "./service";

/** What a change did: every label carried now, and what this change put on and took off (sorted by name). */
export type LabelsChanged = { labels: string[]; added: string[]; removed: string[] };

/** The conversation a change applies to, as the event needs it. */
export type LabelledConversation = {
  id: string;
  customerId: string;
  contactPhoneNumber: string;
  contactName: string | null;
  sender: EventSender;
};

type Change = Pick<LabelChangeValue, "add" | "remove">;

/** The labels a conversation carries, sorted by name (rule conditions read this). */
// Both reads are raw: automation rules make them in a plain transaction (lib/db/plain-tx.ts).
export async function conversationLabels(client: Tx, customerId: string, conversationId: string): Promise<string[]> {
  const rows = await client.$queryRaw<{ name: string }[]>(Prisma.sql`SELECT l.name FROM "ConversationLabel" cl
    JOIN "Label" l ON l.id = cl."labelId" WHERE cl."conversationId" = ${conversationId} AND cl."customerId" = ${customerId}`);
  return sortNames(rows.map((r) => r.name));
}

/** The labels a contact (a phone number of the account) carries, sorted by name. */
export async function contactLabels(client: Tx, customerId: string, phoneNumber: string): Promise<string[]> {
  const rows = await client.$queryRaw<{ name: string }[]>(Prisma.sql`SELECT l.name FROM "ContactLabel" cl
    JOIN "Label" l ON l.id = cl."labelId" WHERE cl."customerId" = ${customerId} AND cl."phoneNumber" = ${phoneNumber}`);
  return sortNames(rows.map((r) => r.name));
}

/** The names of `ids` among `labels`. */
const namesOf = (labels: { id: string; name: string }[], ids: { labelId: string }[]) => {
  const byId = new Map(labels.map((l) => [l.id, l.name]));
  return sortNames(ids.flatMap((r) => byId.get(r.labelId) ?? []));
};

/**
 * Applies `change` to a conversation in the caller's transaction and emits
 * conversation.labels_changed when something changed (`emitted`: the caller signals the
 * delivery worker after its commit). Unknown names are LABEL_NOT_FOUND, nothing written.
 */
export async function changeConversationLabelsIn(
  tx: Tx,
  c: LabelledConversation,
  change: Change,
  by: string | null,
): Promise<LabelsChanged & { emitted: boolean }> {
  const toAdd = await labelsNamed(tx, c.customerId, change.add);
  const toRemove = await labelsNamed(tx, c.customerId, change.remove);
  const inserted =
    toAdd.length === 0
      ? []
      : await tx.$queryRaw<{ labelId: string }[]>(Prisma.sql`
          INSERT INTO "ConversationLabel" ("conversationId", "labelId", "customerId")
          SELECT ${c.id}, l, ${c.customerId} FROM unnest(${toAdd.map((l) => l.id)}::text[]) AS l
          ON CONFLICT DO NOTHING RETURNING "labelId"`);
  const deleted =
    toRemove.length === 0
      ? []
      : await tx.$queryRaw<{ labelId: string }[]>(Prisma.sql`
          DELETE FROM "ConversationLabel" WHERE "conversationId" = ${c.id} AND "customerId" = ${c.customerId}
            AND "labelId" = ANY(${toRemove.map((l) => l.id)}::text[]) RETURNING "labelId"`);
  const added = namesOf(toAdd, inserted);
  const removed = namesOf(toRemove, deleted);
  const labels = await conversationLabels(tx, c.customerId, c.id);
  if (added.length === 0 && removed.length === 0) return { labels, added, removed, emitted: false };
  // The SLA policy is chosen again by the labels (docs/reports.md "SLA policies").
  await refreshSla(tx, [c.id], true);
  const at = new Date();
  await emitEvents(tx, [
    ConversationLabelsChanged.of({
      sender: c.sender,
      // One event per change (labels come and go many times).
      dedupeKey: `conversation.labels_changed:${c.id}:${at.getTime()}:${newId("")}`,
      createdAt: at,
      data: {
        conversationUid: c.id,
        contactPhoneNumber: c.contactPhoneNumber,
        contactName: c.contactName,
        added,
        removed,
        labels,
        by,
      },
    }),
  ]);
  await publishLive(tx, c.customerId, [{ kind: "conversation.changed", senderId: c.sender.id, conversationUid: c.id }]);
  return { labels, added, removed, emitted: true };
}

/** POST /conversations/{uid}/labels and the inbox: the conversation in the principal's scope. */
export async function changeConversationLabels(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  change: Change,
  /** Runs in the change's transaction when something changed (automation writes its rules' job). */
  afterChange?: (tx: Tx, c: { id: string; customerId: string; senderId: string }) => Promise<void>,
): Promise<LabelsChanged & { conversationUid: string }> {
  if (p.member) assertPermission(p, "inbox");
  const row = await getConversation(p, senderId, uid);
  const by = await actorLabel(p);
  const sender: EventSender = {
    id: row.senderId,
    customerId: row.customerId,
    phoneNumber: row.senderPhoneNumber,
    phoneNumberId: row.phoneNumberId,
  };
  const { emitted, ...result } = await db.$transaction(async (tx) => {
    const changed = await changeConversationLabelsIn(tx, { ...row, sender }, change, by);
    if (changed.emitted && afterChange) await afterChange(tx, row);
    return changed;
  });
  if (emitted) deliveriesQueued();
  return { conversationUid: row.id, ...result };
}

const contactNotFound = (phoneNumber: string) =>
  new ApiError("CONTACT_NOT_FOUND", "This account has no contact and no conversation with this phone number", {
    phoneNumber,
  });

/** The account knows the number: in one of its books, a conversation, or labelled before. */
async function knownNumber(client: Tx, customerId: string, phoneNumber: string): Promise<boolean> {
  const [row] = await client.$queryRaw<{ known: boolean }[]>(Prisma.sql`SELECT (
      EXISTS (SELECT 1 FROM "Contact" WHERE "customerId" = ${customerId} AND "phoneNumber" = ${phoneNumber})
      OR EXISTS (SELECT 1 FROM "Conversation" WHERE "customerId" = ${customerId} AND "contactPhoneNumber" = ${phoneNumber})
      OR EXISTS (SELECT 1 FROM "ContactLabel" WHERE "customerId" = ${customerId} AND "phoneNumber" = ${phoneNumber})
    ) AS known`);
  return row?.known === true;
}

/** A contact's labels (GET-like reads of the API and the dashboard); CONTACT_NOT_FOUND for a number never seen. */
export async function readContactLabels(p: Principal, phoneNumber: string): Promise<string[]> {
  if (p.member) assertPermission(p, "contacts.read");
  if (!(await knownNumber(db, p.customerId, phoneNumber))) throw contactNotFound(phoneNumber);
  return contactLabels(db, p.customerId, phoneNumber);
}

/** Applies `change` to a contact (a phone number of the account) in the caller's transaction. */
export async function changeContactLabelsIn(
  tx: Tx,
  customerId: string,
  phoneNumber: string,
  change: Change,
): Promise<LabelsChanged> {
  if (!(await knownNumber(tx, customerId, phoneNumber))) throw contactNotFound(phoneNumber);
  const toAdd = await labelsNamed(tx, customerId, change.add);
  const toRemove = await labelsNamed(tx, customerId, change.remove);
  const inserted =
    toAdd.length === 0
      ? []
      : await tx.$queryRaw<{ labelId: string }[]>(Prisma.sql`
          INSERT INTO "ContactLabel" ("customerId", "phoneNumber", "labelId")
          SELECT ${customerId}, ${phoneNumber}, l FROM unnest(${toAdd.map((l) => l.id)}::text[]) AS l
          ON CONFLICT DO NOTHING RETURNING "labelId"`);
  const deleted =
    toRemove.length === 0
      ? []
      : await tx.$queryRaw<{ labelId: string }[]>(Prisma.sql`
          DELETE FROM "ContactLabel" WHERE "customerId" = ${customerId} AND "phoneNumber" = ${phoneNumber}
            AND "labelId" = ANY(${toRemove.map((l) => l.id)}::text[]) RETURNING "labelId"`);
  return {
    labels: await contactLabels(tx, customerId, phoneNumber),
    added: namesOf(toAdd, inserted),
    removed: namesOf(toRemove, deleted),
  };
}

/** POST /contacts/{phoneNumber}/labels and the dashboard. */
export async function changeContactLabels(
  p: Principal,
  phoneNumber: string,
  change: Change,
): Promise<LabelsChanged & { phoneNumber: string }> {
  if (p.member) assertPermission(p, "contacts.write");
  const result = await db.$transaction((tx) => changeContactLabelsIn(tx, p.customerId, phoneNumber, change));
  return { phoneNumber, ...result };
}
