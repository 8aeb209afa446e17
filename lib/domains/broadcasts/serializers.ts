// Public shapes of a broadcast and of its recipients (docs/broadcasts.md). Every field is
// named here, so a new column (the lease, the resolved parameters) never leaks by accident.
import type { Broadcast, BroadcastRecipient, Sender } from "@/lib/generated/prisma/client";
import type {
  Audience,
  BroadcastPublic,
  CountsPublic,
  EstimatePublic,
  PauseReason,
  RecipientPublic,
  SkipReason,
  Variables,
} from "./schemas";

export const WITH_SENDER = { sender: { select: { phoneNumber: true, phoneNumberId: true } } } as const;

export type BroadcastRow = Broadcast & { sender: Pick<Sender, "phoneNumber" | "phoneNumberId"> };

/** What a broadcast's row does not hold: live counts, billed cost, the template's category. */
export type Extras = { counts: CountsPublic; cost: number; category: string | null };

export const emptyCounts = (): CountsPublic => ({
  total: 0,
  queued: 0,
  skipped: 0,
  sending: 0,
  accepted: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  interrupted: 0,
  replied: 0,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toPublicBroadcast(row: BroadcastRow, extras?: Extras): BroadcastPublic {
  const audience = row.audience as unknown as Audience;
  const variables = row.variables as unknown as Variables;
  return {
    broadcastUid: row.id,
    uid: row.id,
    senderId: row.sender.phoneNumber,
    phoneNumberId: row.sender.phoneNumberId,
    name: row.name,
    status: row.status,
    pauseReason: (row.pauseReason ?? null) as PauseReason | null,
    resumesAt: iso(row.resumesAt),
    template: { name: row.templateName, language: row.templateLanguage, category: extras?.category ?? null },
    audience: {
      contactBookUids: audience.contactBookUids ?? [],
      filters: audience.filters ?? [],
      phoneNumbers: audience.phoneNumbers ?? [],
      segmentUid: audience.segmentUid ?? null,
    },
    variables: { body: variables.body ?? [], header: variables.header ?? [] },
    scheduledAt: iso(row.scheduledAt),
    maxPerSecond: row.maxPerSecond,
    estimate: (row.estimate ?? null) as EstimatePublic | null,
    counts: extras?.counts ?? emptyCounts(),
    cost: extras?.cost ?? 0,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toPublicRecipient(row: BroadcastRecipient): RecipientPublic {
  return {
    phoneNumber: row.phoneNumber,
    status: row.status,
    skipReason: (row.skipReason ?? null) as SkipReason | null,
    errorCode: row.errorCode,
    providerMessageId: row.providerMessageId,
    replied: row.replied,
    updatedAt: row.updatedAt.toISOString(),
  };
}
