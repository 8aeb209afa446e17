// Internal notes (docs/inbox.md "Internal notes"): written by a member in the inbox or by an
// API token, kept beside the thread with their author, and never sent anywhere: nothing
// here reaches the messaging pipeline or the provider. The conversation is looked up in the
// principal's scope first, so another customer's (or sender's) uid is CONVERSATION_NOT_FOUND.
import { randomBytes } from "node:crypto";
import { type PageInput, skipTake } from "@/lib/core/pagination";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { PublicConversationNote } from "./schemas";
import { type NoteRow, toPublicNote } from "./serializers";
import { getConversation } from "./service";

const newNoteUid = () => `note_${randomBytes(12).toString("hex")}`;

async function authorOf(p: Principal): Promise<Pick<NoteRow, "authorType" | "authorEmail" | "authorTokenName">> {
  if (p.member) return { authorType: "member", authorEmail: p.member.email, authorTokenName: null };
  const token = p.tokenId ? await db.apiToken.findFirst({ where: { id: p.tokenId }, select: { name: true } }) : null;
  return { authorType: "api_token", authorEmail: null, authorTokenName: token?.name ?? null };
}

export async function addNote(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  text: string,
): Promise<PublicConversationNote> {
  const conversation = await getConversation(p, senderId, uid);
  const row = await db.conversationNote.create({
    data: {
      id: newNoteUid(),
      customerId: p.customerId,
      conversationId: conversation.id,
      text,
      ...(await authorOf(p)),
    },
  });
  return toPublicNote(row);
}

/** Newest first. */
export async function listNotes(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  q: PageInput,
): Promise<{ conversationUid: string; notes: PublicConversationNote[]; total: number }> {
  const conversation = await getConversation(p, senderId, uid);
  const where = { conversationId: conversation.id, customerId: p.customerId };
  const [rows, total] = await Promise.all([
    db.conversationNote.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(q) }),
    db.conversationNote.count({ where }),
  ]);
  return { conversationUid: conversation.id, notes: rows.map(toPublicNote), total };
}
