// Demo conversations with history (docs/conversations.md): one with an open window and
// unread messages, one closed whose window expired, one read and open. Idempotent: a
// conversation that exists is left alone. Outbound messages take the delivery record of a
// seeded billing record of the same kind (so the thread shows real ticks) and point it at
// the contact; inbound messages carry wamid.demo.in.* ids.

import { db } from "@/lib/db";
import { contentOf, previewOf } from "@/lib/domains/conversations/content";
import { newConversationUid, newThreadMessageUid } from "@/lib/domains/conversations/ids";
import { providerIdsWithMessages } from "@/lib/domains/messages/reads";
import { newMessageUid } from "@/lib/domains/messaging/outgoing";
import { WINDOW_MS } from "@/lib/domains/provider/service-window";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";

type Line =
  | { in: string; minutesAgo: number }
  | { out: string; minutesAgo: number; status: "read" | "delivered" }
  | { template: string; minutesAgo: number; status: "read" | "delivered" };

type DemoConversation = {
  senderIndex: number;
  contact: string;
  name: string;
  status: "OPEN" | "CLOSED";
  unread: number;
  lines: Line[];
};

const DAY = 24 * 60;
const CONVERSATIONS: DemoConversation[] = [
  {
    senderIndex: 0,
    contact: "+15551230001",
    name: "Ana Ruiz",
    status: "OPEN",
    unread: 2,
    lines: [
      { template: "order_update", minutesAgo: 2 * DAY, status: "read" },
      { in: "Hi, is my order on its way?", minutesAgo: 40 },
      { out: "Hi Ana! It left our warehouse this morning and should arrive tomorrow.", minutesAgo: 35, status: "read" },
      { in: "Great, thanks! Can I still change the delivery address?", minutesAgo: 6 },
      { in: "It would be Calle Mayor 12, 3B", minutesAgo: 5 },
    ],
  },
  {
    senderIndex: 0,
    contact: "+15551230002",
    name: "Ben Carter",
    status: "CLOSED",
    unread: 0,
    lines: [
      { in: "Do you ship to Canada?", minutesAgo: 3 * DAY },
      { out: "We do! Shipping to Canada takes 3-5 business days.", minutesAgo: 3 * DAY - 10, status: "read" },
      { template: "order_update", minutesAgo: DAY, status: "delivered" },
    ],
  },
  {
    senderIndex: 1,
    contact: "+15551230003",
    name: "Chloé Martin",
    status: "OPEN",
    unread: 0,
    lines: [
      { template: "spring_sale", minutesAgo: 5 * 60, status: "read" },
      { in: "Do you have the blue jacket in size M?", minutesAgo: 2 * 60 },
      { out: "Yes, we do. Shall I reserve one for you?", minutesAgo: 110, status: "delivered" },
    ],
  },
];

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
    const last = spec.lines[spec.lines.length - 1];
    const inbound = spec.lines.filter((l) => "in" in l);
    const lastInboundAt = inbound.length ? at(Math.min(...inbound.map((l) => l.minutesAgo))) : null;
    const lastBody = (l: Line) =>
      "in" in l || "out" in l
        ? { type: "text", text: { body: "in" in l ? l.in : l.out } }
        : { type: "template", template: { name: l.template } };
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
        lastMessageAt: at(last?.minutesAgo ?? 0),
        lastInboundAt,
        windowExpiresAt: lastInboundAt ? new Date(lastInboundAt.getTime() + WINDOW_MS) : null,
        lastMessagePreview: last ? previewOf(lastBody(last).type, lastBody(last)) : "",
        closedAt: spec.status === "CLOSED" ? at(DAY / 2) : null,
        createdAt: at(spec.lines[0]?.minutesAgo ?? 0),
      },
    });
    let n = 0;
    for (const line of spec.lines) {
      n += 1;
      const when = at(line.minutesAgo);
      if ("in" in line) {
        const body = { type: "text", text: { body: line.in } };
        await db.conversationMessage.create({
          data: {
            id: newThreadMessageUid(),
            customerId,
            conversationId: id,
            direction: "inbound",
            type: "text",
            content: contentOf("text", body) as Prisma.InputJsonValue,
            providerMessageId: `wamid.demo.in.${id}.${n}`,
            sentBy: "contact",
            sentByLabel: spec.name,
            createdAt: when,
          },
        });
        continue;
      }
      const template = "template" in line ? line.template : null;
      const providerMessageId = await freeRecord(customerId, sender, line.status, template ? "utility" : "service");
      if (providerMessageId) {
        await db.billingRecord.update({
          where: { messageId: providerMessageId },
          data: { recipientId: spec.contact.slice(1) },
        });
      }
      const payload = {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: spec.contact.slice(1),
        ...(template
          ? { type: "template", template: { name: template, language: { code: "en" } } }
          : { type: "text", text: { body: "out" in line ? line.out : "", preview_url: false } }),
      };
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
          sendRoute: template ? "send" : "chat",
          // Its status is its delivery record's (lib/domains/messages/status.ts).
          status: providerMessageId ? line.status : "accepted",
          payload,
          createdAt: when,
        },
      });
      await db.conversationMessage.create({
        data: {
          id: messageId,
          customerId,
          conversationId: id,
          direction: "outbound",
          type: payload.type,
          messageId,
          sentBy: template ? "api" : "dashboard",
          sentByLabel: template ? null : "demo@switchboard.test",
          createdAt: when,
        },
      });
    }
    created += 1;
  }
  return created;
}
