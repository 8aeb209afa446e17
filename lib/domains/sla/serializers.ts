// Public shape of an SLA policy (docs/reports.md "SLA policies"): every field named here.
import type { SlaPolicy } from "@/lib/generated/prisma/client";
import type { SlaPolicyPublic } from "./schemas";

/** `phones`: sender id -> phone number, for the senderIds the API shows. */
export function toPublicPolicy(row: SlaPolicy, phones: ReadonlyMap<string, string>): SlaPolicyPublic {
  return {
    slaUid: row.id,
    name: row.name,
    position: row.position,
    firstResponseMinutes: row.firstResponseMinutes,
    nextResponseMinutes: row.nextResponseMinutes,
    resolutionMinutes: row.resolutionMinutes,
    businessHoursOnly: row.businessHoursOnly,
    applies: {
      senderIds: row.senderIds.flatMap((id) => {
        const phone = phones.get(id);
        return phone ? [phone] : [];
      }),
      labels: row.labels,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
