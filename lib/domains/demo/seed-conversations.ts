// Demo conversations with history (docs/conversations.md): one with an open window and
// unread messages, one closed whose window expired, one read and open, and two with files (a
// contact's photos and receipt, an agent's return label: real bytes kept in the store, ready,
// docs/media.md "Simulator and CLI"). Idempotent: a
// conversation that exists is left alone. Outbound messages take the delivery record of a
// seeded billing record of the same kind (so the thread shows real ticks) and point it at
// the contact; inbound messages carry wamid.demo.in.* ids.

import { db } from "@/lib/db";
import { contentOf, previewOf } from "@/lib/domains/conversations/content";
import { newConversationUid, newThreadMessageUid } from "@/lib/domains/conversations/ids";
import { storeBytes } from "@/lib/domains/media/service";
import { providerIdsWithMessages } from "@/lib/domains/messages/reads";
import { newMessageUid } from "@/lib/domains/messaging/outgoing";
import { WINDOW_MS } from "@/lib/domains/provider/service-window";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";
import { kettlePhoto, solePhoto, textPdf } from "./demo-files";

/** A file a line carries (its text is the caption): made when the conversation is seeded. */
type DemoFile = { kind: "image" | "document"; filename: string; bytes: () => Buffer };

type Line =
  | { in: string; minutesAgo: number; file?: DemoFile }
  | { out: string; minutesAgo: number; status: "read" | "delivered"; file?: DemoFile }
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

const RECEIPT = textPdf("Acme Store - Receipt 1042", [
  "Date: 12 November",
  "1 x Kettle, brushed steel      49.00",
  "Shipping                        4.90",
  "Total                          53.90",
]);
const LABEL = textPdf("Return label - RMA 5521", [
  "From: Dana Okafor",
  "To: Acme Returns, Unit 4, Harbour Road",
  "Parcel: 1 x Kettle (damaged on arrival)",
  "Drop it at any post office: postage is paid.",
]);

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
  {
    senderIndex: 0,
    contact: "+15551230004",
    name: "Dana Okafor",
    status: "OPEN",
    unread: 1,
    lines: [
      { in: "Hello, my kettle arrived today and the lid is cracked", minutesAgo: 90 },
      {
        in: "This is how it came out of the box",
        minutesAgo: 89,
        file: { kind: "image", filename: "kettle-lid.png", bytes: kettlePhoto },
      },
      {
        in: "Here is my receipt",
        minutesAgo: 88,
        file: { kind: "document", filename: "receipt-1042.pdf", bytes: () => RECEIPT },
      },
      {
        out: "So sorry, Dana! Here is a prepaid return label; a new kettle ships today.",
        minutesAgo: 60,
        status: "read",
        file: { kind: "document", filename: "return-label-5521.pdf", bytes: () => LABEL },
      },
      { in: "Printed it, thank you!", minutesAgo: 20 },
    ],
  },
  {
    senderIndex: 1,
    contact: "+15551230005",
    name: "Emil Novak",
    status: "OPEN",
    unread: 1,
    lines: [
      { out: "Hi Emil, how are the trainers holding up?", minutesAgo: 4 * 60, status: "read" },
      {
        in: "The sole is already worn through after two weeks",
        minutesAgo: 3 * 60,
        file: { kind: "image", filename: "sole.png", bytes: solePhoto },
      },
    ],
  },
];

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
    const lastBody = (l: Line): Record<string, unknown> & { type: string } =>
      "file" in l && l.file
        ? { type: l.file.kind, [l.file.kind]: { caption: "in" in l ? l.in : l.out } }
        : "in" in l || "out" in l
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
        const file = line.file ? await keepFile(customerId, sender, line.file, line.in, true) : null;
        const body = file?.body ?? { type: "text", text: { body: line.in } };
        await db.conversationMessage.create({
          data: {
            id: newThreadMessageUid(),
            customerId,
            conversationId: id,
            direction: "inbound",
            type: body.type,
            content: contentOf(body.type, body) as Prisma.InputJsonValue,
            mediaId: file?.mediaId ?? null,
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
      const file = "out" in line && line.file ? await keepFile(customerId, sender, line.file, line.out, false) : null;
      const payload = {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: spec.contact.slice(1),
        ...(template
          ? { type: "template", template: { name: template, language: { code: "en" } } }
          : (file?.body ?? { type: "text", text: { body: "out" in line ? line.out : "", preview_url: false } })),
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
          mediaId: file?.mediaId ?? null,
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
