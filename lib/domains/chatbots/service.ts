// Chatbots: list, create, read, update and the dry-run test (docs/chatbots.md). Every read
// and write carries the customer, and the resolved sender when there is one, in its WHERE:
// another customer's or sender's uid is CHATBOT_NOT_FOUND. A global token without senderId
// reaches every sender of its customer; a number-scoped token only its own.

import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import type { Principal } from "@/lib/domains/auth/principal";
import { Prisma, type Sender } from "@/lib/generated/prisma/client";
import { decideWithinBudget, type TimedDecision } from "./decide-within-budget";
import type { ChatbotCreateInput, ChatbotListQuery, ChatbotPatch } from "./schemas";
import { type ChatbotRow, configOf } from "./serializers";
import { assertTemplateReplies } from "./template-replies";

const WITH_SENDER = { sender: { select: { phoneNumber: true, phoneNumberId: true } } } as const;

export const chatbotNotFound = (uid: string) =>
  new ApiError("CHATBOT_NOT_FOUND", `Chatbot ${uid} not found for this account and sender`);

/** The tenant part of every WHERE: the customer, and the sender when one is resolved or bound. */
export function chatbotScope(p: Principal, sender: Sender | undefined): { customerId: string; senderId?: string } {
  if (sender) {
    if (sender.customerId !== p.customerId) throw new ApiError("SENDER_NOT_FOUND", "Sender not found");
    if (p.scopedSenderId && p.scopedSenderId !== sender.id) {
      throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "This token is bound to another sender");
    }
    return { customerId: p.customerId, senderId: sender.id };
  }
  return { customerId: p.customerId, ...(p.scopedSenderId ? { senderId: p.scopedSenderId } : {}) };
}

const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));

/** Refuses a second ACTIVE bot on a sender, naming the active one. */
async function activeConflict(
  tx: Tx,
  customerId: string,
  senderId: string,
  exceptId: string | null,
): Promise<never | void> {
  const active = await tx.chatbot.findFirst({
    where: { customerId, senderId, status: "ACTIVE", ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true, name: true },
  });
  if (active) throw activeError(active);
}

function activeError(active: { id: string; name: string }): ApiError {
  const message = `chatbot "${active.name}" (${active.id}) is already ACTIVE for this sender; deactivate it first`;
  return new ApiError("VALIDATION_FAILED", `chatbot.status: ${message}`, {
    fields: [{ path: "body.chatbot.status", message }],
    activeChatbotUid: active.id,
  });
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

// Two activations racing: the unique activeSenderId lets one win; the other gets the same answer.
async function withActiveGuard<T>(customerId: string, senderId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const active = await db.chatbot.findFirst({ where: { customerId, senderId, status: "ACTIVE" } });
    throw active ? activeError(active) : error;
  }
}

export async function createChatbot(p: Principal, sender: Sender, input: ChatbotCreateInput): Promise<ChatbotRow> {
  const scope = chatbotScope(p, sender);
  const active = input.status === "ACTIVE";
  await assertTemplateReplies(p.customerId, input);
  return withActiveGuard(p.customerId, sender.id, () =>
    db.$transaction(async (tx) => {
      if (active) await activeConflict(tx, p.customerId, sender.id, null);
      const created = await tx.chatbot.create({
        data: {
          id: newId("cbt_"),
          customerId: scope.customerId,
          senderId: sender.id,
          activeSenderId: active ? sender.id : null,
          name: input.name,
          status: input.status,
          rules: input.rules as Prisma.InputJsonValue,
          fallbackReply: json(input.fallbackReply),
          businessHours: json(input.businessHours),
        },
        include: WITH_SENDER,
      });
      await recordAudit(tx, {
        ...auditContext(p),
        action: active ? "chatbot.activated" : "chatbot.created",
        target: { type: "chatbot", uid: created.id },
        details: { name: created.name, status: created.status, senderId: created.senderId, created: true },
      });
      return created;
    }),
  );
}

export async function listChatbots(
  p: Principal,
  sender: Sender | undefined,
  query: Pick<ChatbotListQuery, "status" | "page" | "limit">,
): Promise<{ chatbots: ChatbotRow[]; total: number }> {
  const where: Prisma.ChatbotWhereInput = {
    ...chatbotScope(p, sender),
    ...(query.status ? { status: query.status } : {}),
  };
  const [chatbots, total] = await Promise.all([
    db.chatbot.findMany({
      where,
      include: WITH_SENDER,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.chatbot.count({ where }),
  ]);
  return { chatbots, total };
}

export async function getChatbot(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  tx: Tx = db,
): Promise<ChatbotRow> {
  const row = await tx.chatbot.findFirst({ where: { id: uid, ...chatbotScope(p, sender) }, include: WITH_SENDER });
  if (!row) throw chatbotNotFound(uid);
  return row;
}

function toUpdateData(patch: ChatbotPatch, senderId: string): Prisma.ChatbotUpdateManyMutationInput {
  const data: Prisma.ChatbotUpdateManyMutationInput = {};
  if (patch.name !== undefined) data.name = patch.name;
  if (patch.status !== undefined) {
    data.status = patch.status;
    data.activeSenderId = patch.status === "ACTIVE" ? senderId : null;
  }
  if (patch.rules !== undefined) data.rules = patch.rules as Prisma.InputJsonValue;
  if (patch.fallbackReply !== undefined) data.fallbackReply = json(patch.fallbackReply);
  if (patch.businessHours !== undefined) data.businessHours = json(patch.businessHours);
  return data;
}

/** Applies the patch with the tenant in the WHERE; activating checks the sender has no other ACTIVE bot. */
export async function updateChatbot(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  patch: ChatbotPatch,
): Promise<ChatbotRow> {
  const scope = chatbotScope(p, sender);
  const current = await getChatbot(p, sender, uid);
  await assertTemplateReplies(p.customerId, patch);
  return withActiveGuard(p.customerId, current.senderId, () =>
    db.$transaction(async (tx) => {
      if (patch.status === "ACTIVE") await activeConflict(tx, p.customerId, current.senderId, uid);
      const { count } = await tx.chatbot.updateMany({
        where: { id: uid, ...scope, senderId: current.senderId },
        data: toUpdateData(patch, current.senderId),
      });
      if (count === 0) throw chatbotNotFound(uid);
      const statusChanged = patch.status !== undefined && patch.status !== current.status;
      await recordAudit(tx, {
        ...auditContext(p),
        action: statusChanged
          ? patch.status === "ACTIVE"
            ? "chatbot.activated"
            : "chatbot.deactivated"
          : "chatbot.updated",
        target: { type: "chatbot", uid },
        details: { fields: Object.keys(patch).sort(), from: current.status, to: patch.status ?? current.status },
      });
      return getChatbot(p, sender, uid, tx);
    }),
  );
}

/**
 * The dry run: what the bot would answer to `text` now (a tap when `replyId` is given), under the same pattern budget as a
 * real message (decide-within-budget.ts). Sends nothing, writes nothing.
 */
export async function testChatbot(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  input: { text: string; replyId?: string },
  now = new Date(),
): Promise<TimedDecision & { chatbotUid: string }> {
  const row = await getChatbot(p, sender, uid);
  const subject = { chatbotId: row.id, customerId: p.customerId };
  const decision = await decideWithinBudget(configOf(row), input.text, now, subject, input.replyId);
  return { chatbotUid: row.id, ...decision };
}
