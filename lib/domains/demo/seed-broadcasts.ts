// The demo's broadcasts (docs/broadcasts.md): one completed three days ago with its results
// (recipients read, delivered, sent, failed with the provider's codes, skipped, some who
// replied) and one scheduled a week ahead, so the broadcast pages have something to show.
// Idempotent: a broadcast is found by name, its recipients by (broadcast, phone number).
// Written as rows, not sent: the completed one has no messages behind it, so it billed nothing.
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import type { BroadcastRecipientStatus, Prisma, Sender } from "@/lib/generated/prisma/client";
import { seededRandom } from "./random";

export const DEMO_BROADCASTS = {
  completed: { name: "Spring sale: newsletter", book: "Newsletter subscribers" },
  scheduled: { name: "VIP early access", book: "VIP customers" },
} as const;

const TEMPLATE = { name: "spring_sale", language: "en" } as const;
const VARIABLES = { body: [{ source: "name", default: "there" }], header: [] };

type Outcome = { status: BroadcastRecipientStatus; skipReason?: string; errorCode?: number };
const OUTCOMES: readonly (readonly [Outcome, number])[] = [
  [{ status: "read" }, 48],
  [{ status: "delivered" }, 28],
  [{ status: "sent" }, 8],
  [{ status: "failed", errorCode: 131026 }, 4],
  [{ status: "failed", errorCode: 131049 }, 3],
  [{ status: "failed", errorCode: 131050 }, 2],
  [{ status: "skipped", skipReason: "blacklisted" }, 2],
];

/** As startBroadcast stores it; `rate`: the template's category (marketing) on the rate card. */
function estimateFor(recipients: number, skipped: number, pace: number, rate: number): Prisma.InputJsonValue {
  return {
    recipients,
    skipped,
    cost: Number((recipients * rate).toFixed(6)),
    currency: "USD",
    durationSeconds: Math.ceil(recipients / pace),
  };
}

async function bookOf(customerId: string, name: string) {
  return db.contactBook.findFirstOrThrow({ where: { customerId, name }, select: { id: true } });
}

async function ensureCompleted(customerId: string, sender: Sender, now: Date, rate: number): Promise<void> {
  const spec = DEMO_BROADCASTS.completed;
  const book = await bookOf(customerId, spec.book);
  const startedAt = new Date(now.getTime() - 3 * 86_400_000);
  const completedAt = new Date(startedAt.getTime() + 4 * 60_000);
  const contacts = await db.contact.findMany({
    where: { customerId, contactBookId: book.id },
    select: { id: true, phoneNumber: true, name: true },
    orderBy: { phoneNumber: "asc" },
  });
  const rnd = seededRandom(4242);
  const outcomes = contacts.map(() => rnd.pick(OUTCOMES));
  const skipped = outcomes.filter((o) => o.status === "skipped").length;
  const broadcast =
    (await db.broadcast.findFirst({ where: { customerId, name: spec.name }, select: { id: true } })) ??
    (await db.broadcast.create({
      data: {
        id: newId("bc_"),
        customerId,
        senderId: sender.id,
        name: spec.name,
        status: "COMPLETED",
        templateName: TEMPLATE.name,
        templateLanguage: TEMPLATE.language,
        audience: { contactBookUids: [book.id], filters: [], phoneNumbers: [] },
        variables: VARIABLES,
        maxPerSecond: 20,
        estimate: estimateFor(contacts.length - skipped, skipped, 20, rate),
        scheduledAt: startedAt,
        startedAt,
        completedAt,
        createdAt: new Date(startedAt.getTime() - 86_400_000),
      },
      select: { id: true },
    }));
  const rows = contacts.map((c, i) => {
    const outcome = outcomes[i] ?? { status: "read" };
    const sentAt = new Date(startedAt.getTime() + i * 1_000);
    const delivered = outcome.status === "delivered" || outcome.status === "read";
    return {
      broadcastId: broadcast.id,
      customerId,
      senderId: sender.id,
      phoneNumber: c.phoneNumber,
      contactId: c.id,
      parameters: { body: [c.name ?? "there"], header: [] },
      status: outcome.status,
      skipReason: outcome.skipReason ?? null,
      errorCode: outcome.errorCode ?? null,
      providerMessageId: outcome.status === "skipped" ? null : `wamid.demo.broadcast.${i + 1}`,
      attempts: outcome.status === "skipped" ? 0 : 1,
      sendingAt: outcome.status === "skipped" ? null : sentAt,
      failedAt: outcome.status === "failed" ? new Date(sentAt.getTime() + 5_000) : null,
      deliveredAt: delivered ? new Date(sentAt.getTime() + 4_000) : null,
      // Some of those who got it wrote back (within 72 hours of delivery).
      replied: delivered && i % 7 === 3,
      createdAt: startedAt,
      updatedAt: delivered ? new Date(sentAt.getTime() + 60_000) : new Date(sentAt.getTime() + 5_000),
    };
  });
  await db.broadcastRecipient.createMany({ data: rows, skipDuplicates: true });
}

async function ensureScheduled(customerId: string, sender: Sender, now: Date, rate: number): Promise<void> {
  const spec = DEMO_BROADCASTS.scheduled;
  if (await db.broadcast.findFirst({ where: { customerId, name: spec.name }, select: { id: true } })) return;
  const book = await bookOf(customerId, spec.book);
  const size = await db.contact.count({ where: { customerId, contactBookId: book.id } });
  // A week ahead, at 09:00 UTC.
  const at = new Date(now.getTime() + 7 * 86_400_000);
  at.setUTCHours(9, 0, 0, 0);
  await db.broadcast.create({
    data: {
      id: newId("bc_"),
      customerId,
      senderId: sender.id,
      name: spec.name,
      status: "SCHEDULED",
      templateName: TEMPLATE.name,
      templateLanguage: TEMPLATE.language,
      audience: { contactBookUids: [book.id], filters: [], phoneNumbers: [] },
      variables: VARIABLES,
      maxPerSecond: null,
      estimate: estimateFor(size, 0, 80, rate),
      scheduledAt: at,
    },
  });
}

export async function seedBroadcasts(customerId: string, sender: Sender, now: Date, rate: number): Promise<void> {
  await ensureCompleted(customerId, sender, now, rate);
  await ensureScheduled(customerId, sender, now, rate);
}
