// Demo conversations with history (docs/conversations.md), as lib/domains/demo/demo-conversations.ts
// lines them up: one with an open window and unread messages, one closed whose window expired,
// one read and open, two with files (real bytes kept in the store, ready, docs/media.md
// "Simulator and CLI"), reactions of both sides and quoted replies, and the demo bot's button
// menu tapped and answered (docs/chatbots.md). Idempotent: a conversation that exists is left
// alone. Outbound messages take the delivery record of a seeded billing record of the same kind
// (so the thread shows real ticks) and point it at the contact; inbound messages carry
// wamid.demo.in.* ids.

import { db } from "@/lib/db";
import { contentOf, previewOf } from "@/lib/domains/conversations/content";
import { newConversationUid, newThreadMessageUid } from "@/lib/domains/conversations/ids";
import type { ReplyTo } from "@/lib/domains/conversations/quotes";
import { reactionPreview } from "@/lib/domains/conversations/reactions";
import { storeBytes } from "@/lib/domains/media/service";
import { providerIdsWithMessages } from "@/lib/domains/messages/reads";
import { toProviderInteractive } from "@/lib/domains/messaging/interactive-provider";
import { newMessageUid } from "@/lib/domains/messaging/outgoing";
import { WINDOW_MS } from "@/lib/domains/provider/service-window";
import { recordCloses, recordInbound, recordPersonReplies } from "@/lib/domains/support/periods";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";
import { DEMO_EMAIL } from "./constants";
import { CONVERSATIONS, DAY, type DemoConversation, type DemoFile, type Line } from "./demo-conversations";
import { DEMO_CHATBOT_NAME } from "./seed-chatbots";

type Body = Record<string, unknown> & { type: string };

/** What a seeded line became: the entry a later line quotes or a reaction attaches to. */
type Made = { entryId: string; providerMessageId: string | null; preview: string };

/** Keeps a line's file in the store (ready, as a kept upload or a fetched inbound file is): its mediaId and the body's part. */
async function keepFile(customerId: string, sender: Sender, file: DemoFile, caption: string, inbound: boolean) {
  const kept = await storeBytes({
    customerId,
    senderId: sender.id,
    bytes: file.bytes(),
    filename: file.filename,
    source: inbound ? "inbound" : "upload",
  });
  const part = {
    id: kept.mediaId,
    ...(inbound ? { mime_type: kept.mimeType, sha256: kept.sha256 } : {}),
    ...(file.kind === "document" ? { filename: file.filename } : {}),
    ...(caption ? { caption } : {}),
  };
  return { mediaId: kept.mediaId, body: { type: file.kind, [file.kind]: part } };
}

/** A seeded delivery record of this kind that no message claims yet. */
async function freeRecord(customerId: string, sender: Sender, status: string, templateType: string) {
  const records = await db.billingRecord.findMany({
    where: { customerId, senderId: sender.id, status, templateType, messageId: { startsWith: "wamid.demo." } },
    orderBy: { messageId: "asc" },
    select: { messageId: true },
    take: 50,
  });
  const claimed = await providerIdsWithMessages(records.map((r) => r.messageId));
  return records.find((r) => !claimed.has(r.messageId))?.messageId ?? null;
}

/** A line's provider body, without its file's id (for its preview). */
function bodyOf(l: Line): Body {
  if ("file" in l && l.file) return { type: l.file.kind, [l.file.kind]: { caption: "in" in l ? l.in : l.out } };
  if ("in" in l) return { type: "text", text: { body: l.in } };
  if ("out" in l) return { type: "text", text: { body: l.out, preview_url: false } };
  if ("tap" in l) return { type: "interactive", interactive: { type: "button_reply", button_reply: l.tap } };
  if ("menu" in l) return { type: "interactive", interactive: toProviderInteractive("buttons", l.menu) };
  return { type: "template", template: { name: l.template, language: { code: "en" } } };
}

const inbound = (l: Line) => "in" in l || "tap" in l;

/** The conversation's latest contact activity and latest activity: its lines and the contact's reactions. */
function activity(spec: DemoConversation, at: (minutes: number) => Date) {
  const reactions = spec.lines.flatMap((l, i) =>
    (l.reactions ?? []).filter((r) => r.by === "contact").map((r) => ({ minutesAgo: r.minutesAgo, i, r })),
  );
  const contact = [...spec.lines.filter(inbound).map((l) => l.minutesAgo), ...reactions.map((r) => r.minutesAgo)];
  const lastInboundAt = contact.length ? at(Math.min(...contact)) : null;
  const last = spec.lines[spec.lines.length - 1];
  const reaction = reactions.sort((a, b) => a.minutesAgo - b.minutesAgo)[0];
  const lastLineAgo = last?.minutesAgo ?? 0;
  if (reaction && reaction.minutesAgo < lastLineAgo) {
    const target = spec.lines[reaction.i];
    const preview = target ? previewOf(bodyOf(target).type, bodyOf(target)) : null;
    return {
      lastInboundAt,
      lastMessageAt: at(reaction.minutesAgo),
      preview: reactionPreview(reaction.r.emoji, preview),
    };
  }
  const body = last ? bodyOf(last) : null;
  return { lastInboundAt, lastMessageAt: at(lastLineAgo), preview: body ? previewOf(body.type, body) : "" };
}

export async function seedConversations(customerId: string, senders: Sender[], now: Date): Promise<number> {
  let created = 0;
  for (const spec of CONVERSATIONS) {
    const sender = senders[spec.senderIndex];
    if (!sender?.phoneNumberId) continue;
    const exists = await db.conversation.findUnique({
      where: { senderId_contactPhoneNumber: { senderId: sender.id, contactPhoneNumber: spec.contact } },
    });
    if (exists) continue;
    const at = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const id = newConversationUid();
    const { lastInboundAt, lastMessageAt, preview } = activity(spec, at);
    await db.conversation.create({
      data: {
        id,
        customerId,
        senderId: sender.id,
        contactPhoneNumber: spec.contact,
        contactName: spec.name,
        status: spec.status,
        unreadCount: spec.unread,
        unread: spec.unread > 0,
        lastMessageAt,
        lastInboundAt,
        windowExpiresAt: lastInboundAt ? new Date(lastInboundAt.getTime() + WINDOW_MS) : null,
        lastMessagePreview: preview,
        closedAt: spec.status === "CLOSED" ? at(DAY / 2) : null,
        createdAt: at(spec.lines[0]?.minutesAgo ?? 0),
      },
    });
    const made: Made[] = [];
    let n = 0;
    for (const line of spec.lines) {
      n += 1;
      const quoted = line.quotes === undefined ? undefined : made[line.quotes];
      const replyTo: ReplyTo | null = quoted
        ? { messageId: quoted.entryId, providerMessageId: quoted.providerMessageId, preview: quoted.preview }
        : null;
      const reactions = (line.reactions ?? [])
        .map((r) => ({ by: r.by, emoji: r.emoji, at: at(r.minutesAgo).toISOString() }))
        .sort((a, b) => a.at.localeCompare(b.at));
      const common = {
        customerId,
        conversationId: id,
        createdAt: at(line.minutesAgo),
        ...(replyTo ? { replyTo } : {}),
        ...(reactions.length ? { reactions } : {}),
      };
      const entry =
        "in" in line || "tap" in line
          ? await seedInbound(customerId, sender, spec, line, `wamid.demo.in.${id}.${n}`, common)
          : await seedOutbound(customerId, sender, spec, line, common);
      made.push(entry);
      // A contact's reaction is also the inbound message that carried it (shown on its message, not as a line).
      for (const r of line.reactions ?? []) {
        if (r.by !== "contact") continue;
        await db.conversationMessage.create({
          data: {
            id: newThreadMessageUid(),
            customerId,
            conversationId: id,
            direction: "inbound",
            type: "reaction",
            content: { reaction: { message_id: entry.providerMessageId, emoji: r.emoji } },
            providerMessageId: `wamid.demo.in.${id}.${n}.reaction`,
            sentBy: "contact",
            sentByLabel: spec.name,
            replyTo: { messageId: entry.entryId, providerMessageId: entry.providerMessageId, preview: entry.preview },
            createdAt: at(r.minutesAgo),
          },
        });
      }
    }
    await replaySupport(customerId, sender, id, spec, at);
    created += 1;
  }
  return created;
}

/**
 * The conversation's support periods as the live product records them (lib/domains/support/periods.ts):
 * each inbound line arrives, each person's line replies (a member's in the inbox, a template
 * through the API; never the chatbot's), and a closed one is closed by the demo member. Without
 * them the contacts waiting in the inbox had no period, so an SLA policy made at first start gave
 * them no due time (docs/reports.md "Definitions").
 */
async function replaySupport(
  customerId: string,
  sender: Sender,
  conversationId: string,
  spec: DemoConversation,
  at: (minutes: number) => Date,
) {
  await db.$transaction(async (tx) => {
    for (const line of spec.lines) {
      const when = at(line.minutesAgo);
      if (inbound(line)) {
        await recordInbound(tx, [{ conversationId, customerId, senderId: sender.id, at: when, count: 1 }]);
      } else if (!("bot" in line && line.bot === true)) {
        const responder = "template" in line ? "api" : DEMO_EMAIL;
        await recordPersonReplies(tx, [{ conversationId, at: when, responder }]);
      }
    }
    if (spec.status === "CLOSED") await recordCloses(tx, [{ conversationId, at: at(DAY / 2), closedBy: DEMO_EMAIL }]);
  });
}

type Common = {
  customerId: string;
  conversationId: string;
  createdAt: Date;
  replyTo?: ReplyTo;
  reactions?: { by: string; emoji: string; at: string }[];
};

async function seedInbound(
  customerId: string,
  sender: Sender,
  spec: DemoConversation,
  line: Line,
  providerMessageId: string,
  common: Common,
): Promise<Made> {
  const file = "in" in line && line.file ? await keepFile(customerId, sender, line.file, line.in, true) : null;
  const body = file?.body ?? bodyOf(line);
  const entryId = newThreadMessageUid();
  await db.conversationMessage.create({
    data: {
      ...common,
      id: entryId,
      direction: "inbound",
      type: body.type,
      content: contentOf(body.type, body) as Prisma.InputJsonValue,
      mediaId: file?.mediaId ?? null,
      providerMessageId,
      sentBy: "contact",
      sentByLabel: spec.name,
    },
  });
  return { entryId, providerMessageId, preview: previewOf(body.type, body) };
}

async function seedOutbound(
  customerId: string,
  sender: Sender,
  spec: DemoConversation,
  line: Line,
  common: Common,
): Promise<Made> {
  const status = "status" in line ? line.status : "delivered";
  const template = "template" in line ? line.template : null;
  const bot = "bot" in line && line.bot === true;
  const providerMessageId = await freeRecord(customerId, sender, status, template ? "utility" : "service");
  if (providerMessageId) {
    await db.billingRecord.update({
      where: { messageId: providerMessageId },
      data: { recipientId: spec.contact.slice(1) },
    });
  }
  const file = "out" in line && line.file ? await keepFile(customerId, sender, line.file, line.out, false) : null;
  const body = file?.body ?? bodyOf(line);
  const payload = { messaging_product: "whatsapp", recipient_type: "individual", to: spec.contact.slice(1), ...body };
  const messageId = newMessageUid();
  await db.message.create({
    data: {
      id: messageId,
      customerId,
      senderId: sender.id,
      providerMessageId,
      recipient: spec.contact,
      type: payload.type,
      templateName: template,
      templateLanguage: template ? "en" : null,
      pricingCategory: template ? "utility" : "service",
      sendRoute: bot ? "chatbot" : template ? "send" : "chat",
      // Its status is its delivery record's (lib/domains/messages/status.ts).
      status: providerMessageId ? status : "accepted",
      payload: payload as Prisma.InputJsonValue,
      mediaId: file?.mediaId ?? null,
      createdAt: common.createdAt,
    },
  });
  await db.conversationMessage.create({
    data: {
      ...common,
      id: messageId,
      direction: "outbound",
      type: payload.type,
      messageId,
      sentBy: bot ? "chatbot" : template ? "api" : "dashboard",
      sentByLabel: bot ? DEMO_CHATBOT_NAME : template ? null : "demo@switchboard.test",
    },
  });
  return { entryId: messageId, providerMessageId, preview: previewOf(payload.type, payload) };
}
